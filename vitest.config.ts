import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";

/**
 * Three projects (`vitest run --project <name>`; `npm test` runs all three on the embedded database):
 * - unit: test files that never open a database (pure code, route modules loaded without a request
 *   reaching the database). CI runs them once.
 * - db: test files on the database the environment names (PostgreSQL when DATABASE_URL is set, else
 *   embedded). CI runs them on both. Every file not listed below is here.
 * - slow: the slowest database test files (15 s to 3 min each on the embedded database: a fuzz of
 *   1,500 uploads, a 500-run history, the demo seed, child processes), and those that open an embedded
 *   database of their own whatever DATABASE_URL says. CI runs them once, in the PostgreSQL pass (2 to 3
 *   times faster there); `npm test` runs them on the embedded database.
 */
const ALL = ["server/**/*.test.ts", "components/**/*.test.ts", "scripts/**/*.test.ts", "app/**/*.test.ts"];

const UNIT = [
  "server/domain/**/*.test.ts",
  "components/**/*.test.ts",
  "app/api/v1/methods.test.ts",
  "scripts/ci/commit-status.test.ts",
  "scripts/ci/fake-forges.test.ts",
  "scripts/ci/living-comment.test.ts",
  "server/admin-token.test.ts",
  "server/env.test.ts",
  "server/http/openapi/index.test.ts",
  "server/http/upload-body.test.ts",
  "server/services/platform/cpu-pool.test.ts",
  "server/services/platform/errors.test.ts",
  "server/api/errors.test.ts",
  "server/services/sharing/share-scope.test.ts",
  "server/services/notifications/webhook-targets.test.ts",
  "server/testing/openapi-responses.test.ts",
];

const SLOW = [
  // 1,500 fuzzed uploads through the route.
  "app/api/v1/projects/[[]project]/runs/fuzz.test.ts",
  // Histories replayed through detection, up to 500 runs.
  "server/services/incidents/regression-detection.test.ts",
  // 60 nightly runs through the CI gate.
  "app/api/v1/projects/[[]project]/runs/gate.test.ts",
  // Every bundled real round through the CI gate.
  "app/api/v1/projects/[[]project]/runs/verdict-fixtures.test.ts",
  // Child processes: job workers killed and restarted; the PR comment and A/B scripts and git.
  "server/jobs/restart.test.ts",
  "scripts/ci/benchtrack-pr.test.ts",
  "scripts/ci/benchtrack-pr-gitlab.test.ts",
  "scripts/ci/benchtrack-ab.test.ts",
  // A streaming replica of the PostgreSQL server (pg_basebackup, a second cluster): PostgreSQL only.
  "server/services/platform/read-replicas.test.ts",
  // A PostgreSQL cluster of its own (initdb), restarted under uploads and a running job.
  "server/database-restart.test.ts",
  // Always on an embedded database of their own: the demo seed (≈150 uploads), the database lock across
  // a child process, migrations on a folder, on a scratch database, and on data stored before them.
  "scripts/seed/seed-demo.test.ts",
  "server/db.test.ts",
  "server/migrate/apply.test.ts",
  "server/migrate/migrations.test.ts",
  "server/migrate/endpoint-protocol.test.ts",
];

export default defineConfig({
  resolve: {
    alias: { "@": fileURLToPath(new URL(".", import.meta.url)) },
  },
  test: {
    environment: "node",
    // Test files upload and read far faster than any client: rate limits are off (0) except where a
    // test sets them before the environment is first read (rate-limits.test.ts).
    env: { BENCHTRACK_RATE_UPLOADS_PER_MINUTE: "0", BENCHTRACK_RATE_READS_PER_MINUTE: "0", BENCHTRACK_RATE_AUTH_FAILURES_PER_MINUTE: "0" },
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Integration tests share one database per worker; keep workers few on a 2-core machine.
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: "unit", include: UNIT } },
      { extends: true, test: { name: "db", include: ALL, exclude: [...configDefaults.exclude, ...UNIT, ...SLOW] } },
      { extends: true, test: { name: "slow", include: SLOW } },
    ],
  },
});

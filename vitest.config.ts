import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";

/**
 * Three projects (`vitest run --project <name>`; `npm test` runs all three on the embedded database),
 * chosen by the test file's suffix:
 * - unit, `*.test.ts`: never opens a database (pure code, route modules loaded without a request reaching
 *   the database). CI runs them once.
 * - db, `*.db.test.ts`: on the database the environment names (PostgreSQL when DATABASE_URL is set, else
 *   embedded). CI runs them on both.
 * - slow, `*.slow.test.ts`: the slowest database tests (15 s to 3 min each on the embedded database: a fuzz
 *   of 1,500 uploads, a 500-run history, the demo seed, child processes, a replica, a restarted cluster),
 *   and those that open an embedded database of their own whatever DATABASE_URL says. CI runs them once,
 *   in the PostgreSQL pass (2 to 3 times faster there); `npm test` runs them on the embedded database.
 * A unit test that opens a database fails in CI's embedded pass, which has no other database to reach.
 */
const ROOTS = ["server", "components", "scripts", "app"];
const ending = (suffix: string) => ROOTS.map((root) => `${root}/**/*${suffix}`);
const DB = ending(".db.test.ts");
const SLOW = ending(".slow.test.ts");
const UNIT = ending(".test.ts");

export default defineConfig({
  resolve: {
    alias: { "@": fileURLToPath(new URL(".", import.meta.url)) },
  },
  test: {
    environment: "node",
    // Test files upload and read far faster than any client: rate limits are off (0) except where a
    // test sets them before the environment is first read (rate-limits.test.ts).
    // The request and job log (one line each) is kept to warnings: thousands of requests would bury the
    // test output; the tests of the log capture it at info (captureLogLines).
    env: {
      BENCHTRACK_RATE_UPLOADS_PER_MINUTE: "0",
      BENCHTRACK_RATE_READS_PER_MINUTE: "0",
      BENCHTRACK_RATE_AUTH_FAILURES_PER_MINUTE: "0",
      BENCHTRACK_LOG_LEVEL: "warn",
    },
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Integration tests share one database per worker; keep workers few on a 2-core machine.
    maxWorkers: 2,
    // A worker's test files share its process and modules: the server is imported once per worker, not
    // once per file (that import was half of each pass). Each file starts from the run's environment and
    // no open database (server/testing/test-file-setup.ts).
    isolate: false,
    setupFiles: ["server/testing/test-file-setup.ts"],
    // Transformed modules kept on disk (node_modules/.experimental-vitest-cache): CI's PostgreSQL pass
    // reads the embedded pass's instead of transforming every file again.
    experimental: { fsModuleCache: true },
    projects: [
      { extends: true, test: { name: "unit", include: UNIT, exclude: [...configDefaults.exclude, ...DB, ...SLOW] } },
      { extends: true, test: { name: "db", include: DB } },
      { extends: true, test: { name: "slow", include: SLOW } },
    ],
  },
});

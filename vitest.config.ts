import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: { "@": fileURLToPath(new URL(".", import.meta.url)) },
  },
  test: {
    include: ["server/**/*.test.ts", "components/**/*.test.ts", "scripts/**/*.test.ts", "app/**/*.test.ts"],
    environment: "node",
    // Test files upload and read far faster than any client: rate limits are off (0) except where a
    // test sets them before the environment is first read (rate-limits.test.ts).
    env: { BENCHTRACK_RATE_UPLOADS_PER_MINUTE: "0", BENCHTRACK_RATE_READS_PER_MINUTE: "0", BENCHTRACK_RATE_AUTH_FAILURES_PER_MINUTE: "0" },
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Integration tests share one database per worker; keep workers few on a 2-core machine.
    maxWorkers: 2,
  },
});

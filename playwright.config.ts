import { defineConfig, devices } from "@playwright/test";

/**
 * End-to-end tests against the production build (`npm start` builds when needed), on a fresh
 * embedded database, in Debian's Chromium: Playwright cannot download its own browsers here.
 */
const PORT = Number(process.env.E2E_PORT ?? 3210);
const BASE_URL = `http://localhost:${PORT}`;
export const E2E_ADMIN_TOKEN = "e2e-admin-token-0123456789";
/** A second server, private (BENCHTRACK_READ_TOKEN set), on the next port, for e2e/ui/private.spec.ts. */
export const E2E_PRIVATE_BASE_URL = `http://localhost:${PORT + 1}`;
export const E2E_READ_TOKEN = "e2e-read-token-0123456789";
/** A third server, started by e2e/ui/first-upload.spec.ts itself as a newcomer would (npm start, nothing set). */
export const E2E_FRESH_PORT = PORT + 2;
/**
 * A fourth server, signing people in with a local identity provider (e2e/ui/oidc-sign-in.spec.ts): the
 * provider (npm run oidc:dev, oidc-provider) on PORT + 5, Benchtrack configured for it on PORT + 4
 * (PORT + 3 is move-to-postgres.spec.ts's).
 */
export const E2E_OIDC_BASE_URL = `http://localhost:${PORT + 4}`;
export const E2E_OIDC_ISSUER = `http://127.0.0.1:${PORT + 5}`;
const E2E_OIDC_CLIENT = { id: "benchtrack-e2e", secret: "benchtrack-e2e-secret-0123456789" };
const CHROMIUM_PATH = process.env.BENCHTRACK_CHROMIUM_PATH ?? "/usr/bin/chromium";

/** A server the tests run against: started by `command` (in a shell, at the repository's root), ready once `url` answers. */
export interface E2eServer {
  name: string;
  command: string;
  url: string;
  timeoutMs: number;
  env?: Record<string, string>;
}

/**
 * A Benchtrack server (`npm start`) on a fresh embedded database in .data/<dataDir>, after `beforeStart`
 * (a command and " && "); `env` adds to what every such server here has.
 */
function benchtrackServer(
  name: string,
  options: { port: number; dataDir: string; url: string; beforeStart?: string; env?: Record<string, string> },
): E2eServer {
  return {
    name,
    command: `rm -rf .data/${options.dataDir} && ${options.beforeStart ?? ""}npm start`,
    url: options.url,
    timeoutMs: 240_000,
    env: {
      PORT: String(options.port),
      BENCHTRACK_DATA_DIR: `.data/${options.dataDir}`,
      BENCHTRACK_ADMIN_TOKEN: E2E_ADMIN_TOKEN,
      // The e2e servers always use the embedded database, whatever the shell has.
      DATABASE_URL: "",
      // One line per request would bury the test report: the servers' warnings and errors only.
      BENCHTRACK_LOG_LEVEL: "warn",
      ...options.env,
    },
  };
}

/**
 * The servers e2e/global-setup.ts starts side by side once the build is current (Playwright's own
 * webServer list would start them one after the other: half a minute more) and stops when the tests are done.
 */
export const E2E_SERVERS: E2eServer[] = [
  benchtrackServer("demo", {
    port: PORT,
    dataDir: "e2e",
    url: BASE_URL,
    // The demo history is loaded first (through the upload use case), as a newcomer would.
    beforeStart: "npm run seed:demo && ",
    env: {
      // Two workers upload with one token from one address, faster than any client: the upload
      // limit is off here (its own tests are app/api/v1/projects/[project]/runs/rate-limits.db.test.ts).
      BENCHTRACK_RATE_UPLOADS_PER_MINUTE: "0",
      // e2e/ui/incident-workflow.spec.ts points a webhook at a local stand-in receiver.
      BENCHTRACK_WEBHOOK_ALLOWED_HOSTS: "127.0.0.1",
    },
  }),
  // Any answer means it is up: its pages redirect to /sign-in.
  benchtrackServer("private", {
    port: PORT + 1,
    dataDir: "e2e-private",
    url: `${E2E_PRIVATE_BASE_URL}/sign-in`,
    env: { BENCHTRACK_READ_TOKEN: E2E_READ_TOKEN },
  }),
  {
    name: "identity provider",
    command: `npm run -s oidc:dev -- --port ${PORT + 5} --app ${E2E_OIDC_BASE_URL} --client-id ${E2E_OIDC_CLIENT.id} --client-secret ${E2E_OIDC_CLIENT.secret}`,
    url: `${E2E_OIDC_ISSUER}/.well-known/openid-configuration`,
    timeoutMs: 60_000,
  },
  benchtrackServer("oidc", {
    port: PORT + 4,
    dataDir: "e2e-oidc",
    url: `${E2E_OIDC_BASE_URL}/sign-in`,
    env: {
      BENCHTRACK_PUBLIC_URL: E2E_OIDC_BASE_URL,
      BENCHTRACK_OIDC_ISSUER: E2E_OIDC_ISSUER,
      BENCHTRACK_OIDC_CLIENT_ID: E2E_OIDC_CLIENT.id,
      BENCHTRACK_OIDC_CLIENT_SECRET: E2E_OIDC_CLIENT.secret,
      BENCHTRACK_OIDC_NAME: "the local provider",
      BENCHTRACK_OIDC_ADMIN_GROUPS: "bench-admins",
      BENCHTRACK_OIDC_ALLOWED_DOMAINS: "example.com",
    },
  }),
];

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  forbidOnly: !!process.env.CI,
  retries: 0,
  // Spec files run side by side, two at a time, against the one server; the tests of one file run in
  // order in one worker (their beforeAll seeds what they read). Every file uploads to project slugs of
  // its own (uniqueSlug) and reads no count across projects; the demo projects are only read.
  workers: 2,
  reporter: [["list"]],
  timeout: 60_000,
  // An assertion waits up to 15 s (Playwright's default is 5): CI's machine is a shared 2-core VM, and
  // under a busy host (25% of its time stolen, a load of 12) a page that renders took over 5 s to open.
  expect: { timeout: 15_000 },
  use: {
    baseURL: BASE_URL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [
    { name: "api", testDir: "e2e/api" },
    { name: "ui", testDir: "e2e/ui", use: { ...devices["Desktop Chrome"], channel: undefined } },
  ],
  // The servers (E2E_SERVERS) start side by side before the tests and stop after them: e2e/global-setup.ts.
  globalSetup: "./e2e/global-setup.ts",
});

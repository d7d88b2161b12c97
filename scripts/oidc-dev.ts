// npm run oidc:dev [-- --port 3100] [--app http://localhost:3000]
// Starts a local OpenID Connect provider (oidc-provider, the same one the tests sign in through) with a
// few people to sign in as, and prints the variables that point Benchtrack at it. For trying sign-in on
// your machine; not for production (it keeps everything in memory and asks for no password).
import { parseArgs } from "node:util";
import { startOidcProvider } from "../server/testing/oidc-provider";

const { values } = parseArgs({
  options: {
    port: { type: "string", default: process.env.OIDC_DEV_PORT ?? "3100" },
    app: { type: "string", default: process.env.BENCHTRACK_PUBLIC_URL ?? "http://localhost:3000" },
    "client-id": { type: "string", default: "benchtrack-dev" },
    "client-secret": { type: "string", default: "benchtrack-dev-secret-0123456789" },
  },
});
const port = Number(values.port);
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  console.error(`--port must be a port number, not ${JSON.stringify(values.port)}`);
  process.exit(2);
}
const app = values.app.replace(/\/+$/, "");
const clientId = values["client-id"];
const clientSecret = values["client-secret"];

const provider = await startOidcProvider({
  port,
  clients: [{ clientId, clientSecret, redirectUris: [`${app}/api/auth/oidc/callback`] }],
  accounts: [
    { id: "ada", email: "ada@example.com", name: "Ada Lovelace", groups: ["perf-team", "bench-admins"] },
    { id: "grace", email: "grace@example.com", name: "Grace Hopper", groups: ["perf-team"] },
    { id: "linus", email: "linus@example.org", name: "Linus Guest", groups: [] },
  ],
});

console.log(`A local identity provider is running at ${provider.issuer} (Ctrl-C stops it).

Start Benchtrack (another terminal) with:

  BENCHTRACK_OIDC_ISSUER=${provider.issuer} \\
  BENCHTRACK_OIDC_CLIENT_ID=${clientId} \\
  BENCHTRACK_OIDC_CLIENT_SECRET=${clientSecret} \\
  BENCHTRACK_OIDC_NAME="the local provider" \\
  BENCHTRACK_OIDC_ADMIN_GROUPS=bench-admins \\
  npm start

then open ${app}/sign-in and choose "Sign in with the local provider".
People: Ada (perf-team, bench-admins: a server admin), Grace (perf-team), Linus (no groups), or type any email.
Benchtrack must be reached at ${app} (its redirect URI is ${app}/api/auth/oidc/callback; --app changes it).`);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void provider.close().then(() => process.exit(0));
  });
}

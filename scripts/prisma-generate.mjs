// Generates the Prisma client (server/generated/prisma) without the network.
// `prisma generate` never runs the schema engine, but the CLI downloads one at start-up unless
// PRISMA_SCHEMA_ENGINE_BINARY names an existing file: point it at a stub that refuses to run.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const stub = fileURLToPath(new URL("./schema-engine-unavailable.sh", import.meta.url));
const result = spawnSync("npx", ["--no-install", "prisma", "generate", "--schema", "prisma/schema.prisma"], {
  stdio: "inherit",
  env: {
    ...process.env,
    PRISMA_SCHEMA_ENGINE_BINARY: stub,
    CHECKPOINT_DISABLE: "1",
    PRISMA_HIDE_UPDATE_MESSAGE: "1",
  },
});
process.exit(result.status ?? 1);

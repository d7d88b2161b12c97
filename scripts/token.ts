// npm run token -- create --project <slug> [--name <name>] | list --project <slug> | revoke --project <slug> <token-id>
// Manages project upload tokens directly in the configured database. With the embedded database,
// stop `npm start` first (one process at a time), or use the admin REST endpoint instead.
import { parseArgs } from "node:util";
import { openDatabase, targetFromEnv } from "../server/db";
import { migrateDatabase } from "../server/migrate/apply";
import { createProject, findProject } from "../server/services/projects";
import { createProjectToken, listProjectTokens, revokeProjectToken } from "../server/services/tokens";

const USAGE = `Usage:
  npm run token -- create --project <slug> [--name <name>]   (creates the project if needed)
  npm run token -- list --project <slug>
  npm run token -- revoke --project <slug> <token-id>`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { project: { type: "string" }, name: { type: "string", default: "ci" } },
});
const [command, tokenId] = positionals;
if (!command || !values.project || !["create", "list", "revoke"].includes(command)) {
  console.error(USAGE);
  process.exit(2);
}

const target = targetFromEnv();
await migrateDatabase(target);
const database = await openDatabase(target);
try {
  const db = database.prisma;
  const existing = await findProject(db, values.project);
  if (command === "create") {
    const project = existing ?? (await createProject(db, { slug: values.project }));
    const token = await createProjectToken(db, project.id, values.name);
    console.log(`Created token ${token.id} (${token.name}) for project "${project.slug}". It is shown only now:\n`);
    console.log(token.token);
  } else if (!existing) {
    console.error(`Project "${values.project}" not found.`);
    process.exitCode = 1;
  } else if (command === "list") {
    const tokens = await listProjectTokens(db, existing.id);
    if (tokens.length === 0) console.log("No tokens.");
    for (const token of tokens) {
      const state = token.revokedAt ? `revoked ${token.revokedAt.toISOString()}` : "active";
      console.log(`${token.id}  ${token.prefix}…  ${token.name}  created ${token.createdAt.toISOString()}  ${state}`);
    }
  } else if (!tokenId) {
    console.error(USAGE);
    process.exitCode = 2;
  } else if (await revokeProjectToken(db, existing.id, tokenId)) {
    console.log(`Revoked token ${tokenId}.`);
  } else {
    console.error(`Token ${tokenId} not found in project "${values.project}".`);
    process.exitCode = 1;
  }
} finally {
  await database.close();
}

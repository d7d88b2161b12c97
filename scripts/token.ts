// npm run token -- create --project <slug> [--name <name>] | list --project <slug> | revoke --project <slug> <token-id>
// Manages project upload tokens directly in the configured database. With the embedded database,
// stop `npm start` first (one process at a time), or use the admin REST endpoint instead.
import { parseArgs } from "node:util";
import { DataDirInUseError, openDatabase, targetFromEnv } from "../server/db";
import { getEnv } from "../server/env";
import { migrateDatabase } from "../server/migrate/apply";
import type { Principal } from "../server/services/access";
import { toServiceError } from "../server/services/platform";
import { createProject } from "../server/services/projects";
import { createProjectToken, listProjectTokens, revokeProjectToken } from "../server/services/projects";
import { findProject } from "../server/services/projects";

const USAGE = `Usage:
  npm run token -- create --project <slug> [--name <name>]   (creates the project if needed)
  npm run token -- list --project <slug>
  npm run token -- revoke --project <slug> <token-id>`;

/** Whoever runs this command holds the database itself: they act as the admin. */
const OPERATOR: Principal = { kind: "admin" };

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { project: { type: "string" }, name: { type: "string", default: "ci" } },
});
const [command, tokenId] = positionals;
const slug = values.project;
if (!command || !slug || !["create", "list", "revoke"].includes(command) || (command === "revoke" && !tokenId)) {
  console.error(USAGE);
  process.exit(2);
}

const target = targetFromEnv();
const database = await migrateDatabase(target)
  .then(() => openDatabase(target))
  .catch((error: unknown) => {
    if (!(error instanceof DataDirInUseError)) throw error;
    // The server holds the embedded database: say so, and how to do the same through it.
    const serverUrl = (getEnv().BENCHTRACK_PUBLIC_URL ?? `http://localhost:${getEnv().PORT}`).replace(/\/$/, "");
    console.error(`${error.message}\nWith the server running, its API does the same with the admin token:`);
    console.error(`  curl -X POST -H "Authorization: Bearer $BENCHTRACK_ADMIN_TOKEN" -d '{"name":"${values.name}"}' ${serverUrl}/api/v1/projects/${slug}/tokens`);
    process.exit(1);
  });
try {
  const db = database.prisma;
  if (command === "create") {
    if (!(await findProject(db, slug))) await createProject(db, OPERATOR, { slug });
    const token = await createProjectToken(db, OPERATOR, slug, { name: values.name });
    console.log(`Created token ${token.id} (${token.name}) for project "${slug}". It is shown only now:\n`);
    console.log(token.token);
  } else if (command === "list") {
    const tokens = await listProjectTokens(db, OPERATOR, slug);
    if (tokens.length === 0) console.log("No tokens.");
    for (const token of tokens) {
      const state = token.revokedAt ? `revoked ${token.revokedAt.toISOString()}` : "active";
      console.log(`${token.id}  ${token.prefix}…  ${token.name}  created ${token.createdAt.toISOString()}  ${state}`);
    }
  } else {
    await revokeProjectToken(db, OPERATOR, slug, tokenId!);
    console.log(`Revoked token ${tokenId}.`);
  }
} catch (error) {
  // A missing project or token, a bad slug or name: say so, as the REST API would.
  const problem = toServiceError(error);
  if (problem.code === "internal" || problem.code === "unavailable") throw error;
  console.error(`${problem.message}.${problem.details.map((detail) => ` ${detail.path}: ${detail.message}.`).join("")}`);
  process.exitCode = 1;
} finally {
  await database.close();
}

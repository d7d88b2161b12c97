// npm run token -- create --project <slug> [--name <name>] [--scopes upload,read,triage] [--expires-in-days <n> | --expires-at <date>]
//                | list --project <slug> | revoke --project <slug> <token-id>
// Manages project tokens directly in the configured database (the commands: ./token-command.ts). With the
// embedded database, stop `npm start` first (one process at a time), or use the admin REST endpoint instead.
import { DataDirInUseError, openDatabase, targetFromEnv } from "../server/db";
import { getEnv } from "../server/env";
import { migrateDatabase } from "../server/migrate/apply";
import { TOKEN_USAGE, parseTokenCommand, runTokenCommand } from "./token-command";

const command = parseTokenCommand(process.argv.slice(2));
if (command === null) {
  console.error(TOKEN_USAGE);
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
    const body = command.command === "create" ? ` -d '${JSON.stringify(command.input)}'` : "";
    const method = command.command === "create" ? "-X POST " : command.command === "revoke" ? "-X DELETE " : "";
    const path = command.command === "revoke" ? `tokens/${command.tokenId}` : "tokens";
    console.error(`  curl ${method}-H "Authorization: Bearer $BENCHTRACK_ADMIN_TOKEN"${body} ${serverUrl}/api/v1/projects/${command.project}/${path}`);
    process.exit(1);
  });
try {
  process.exitCode = await runTokenCommand(database.prisma, command, console.log, console.error);
} finally {
  await database.close();
}

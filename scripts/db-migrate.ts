// npm run db:migrate: applies pending migrations to the configured database (DATABASE_URL, or the
// embedded one in BENCHTRACK_DATA_DIR), recording them in _prisma_migrations. npm start runs it too.
import { DataDirInUseError, describeTarget, targetFromEnv } from "../server/db";
import { migrateDatabase } from "../server/migrate/apply";

const target = targetFromEnv();
const applied = await migrateDatabase(target).catch((error: unknown) => {
  if (!(error instanceof DataDirInUseError)) throw error;
  // Another process (a running npm start) holds the embedded database: say so, without a stack trace.
  console.error(error.message);
  process.exit(1);
});
console.log(
  applied.length === 0
    ? `Database is up to date (${describeTarget(target)}).`
    : `Applied ${applied.length} migration(s) to ${describeTarget(target)}: ${applied.join(", ")}`,
);

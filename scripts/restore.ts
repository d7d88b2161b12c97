// npm run restore -- <file> [--force]: a backup (npm run backup) into the configured database (DATABASE_URL,
// or the embedded one in BENCHTRACK_DATA_DIR), migrations applied first, in one transaction. A database
// that already holds projects is refused unless --force, which replaces them. Restoring an embedded
// backup with DATABASE_URL set moves a team to PostgreSQL. docs/operations.md, "Backup and restore".
import { createReadStream } from "node:fs";
import { pipeline } from "node:stream";
import type { Readable } from "node:stream";
import { parseArgs } from "node:util";
import { createGunzip } from "node:zlib";
import { DataDirInUseError, describeTarget, openDatabase, targetFromEnv } from "../server/db";
import { InputError } from "../server/domain/input-error";
import { getEnv } from "../server/env";
import { linesOfChunks } from "../server/http/ndjson-lines";
import { chunksOf } from "../server/http/upload-body";
import { migrateDatabase } from "../server/migrate/apply";
import { ServiceError } from "../server/services/platform";
import { restoreServer } from "../server/services/transfer";

const { positionals, values } = parseArgs({ allowPositionals: true, options: { force: { type: "boolean", default: false } } });
const [file] = positionals;
if (!file || positionals.length > 1) {
  console.error("Usage: npm run restore -- <file> [--force]   (--force replaces the projects the database holds)");
  process.exit(2);
}

const target = targetFromEnv();
const database = await migrateDatabase(target)
  .then(() => openDatabase(target))
  .catch((error: unknown) => {
    if (!(error instanceof DataDirInUseError)) throw error;
    console.error(`${error.message}\nStop the server, restore, then start it again.`);
    process.exit(1);
  });

function fileStream(): Readable {
  const raw = createReadStream(file!);
  if (!file!.endsWith(".gz")) return raw;
  return pipeline(raw, createGunzip(), () => undefined);
}

try {
  const counts = await restoreServer(database.prisma, linesOfChunks(chunksOf(fileStream()), getEnv().BENCHTRACK_MAX_IMPORT_LINE_CHARS), { force: values.force });
  const created = Object.entries(counts.created)
    .filter(([, count]) => count > 0)
    .map(([kind, count]) => `${count} ${kind}(s)`)
    .join(", ");
  console.log(
    `Restored ${counts.projects.length} project(s) (${counts.projects.map((project) => project.slug).join(", ")}), ${counts.runs.created} run(s)` +
      `${created ? `, ${created}` : ""} into ${describeTarget(target)}. Trend rollups are recomputed by the server's workers when it starts.`,
  );
} catch (error) {
  const known = error instanceof ServiceError || error instanceof InputError ? error : null;
  if (!known) throw error;
  console.error(`Restore refused, nothing was written: ${known.message}`);
  for (const detail of known.details) console.error(`  ${detail.path}: ${detail.message}`);
  process.exitCode = 1;
} finally {
  await database.close();
}

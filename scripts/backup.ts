// npm run backup -- <file>: every project of the configured database (DATABASE_URL, or the embedded one in
// BENCHTRACK_DATA_DIR) to one NDJSON file (gzip when the name ends in .gz), read in one snapshot.
// PostgreSQL: consistent while the server runs. Embedded: stop the server first (one process at a time).
// docs/operations.md, "Backup and restore".
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { rename, rm } from "node:fs/promises";
import type { Writable } from "node:stream";
import { parseArgs } from "node:util";
import { createGzip } from "node:zlib";
import { DataDirInUseError, describeTarget, openDatabase, targetFromEnv } from "../server/db";
import { backupServer } from "../server/services/transfer";

const { positionals } = parseArgs({ allowPositionals: true, options: {} });
const [file] = positionals;
if (!file || positionals.length > 1) {
  console.error("Usage: npm run backup -- <file>   (gzip-compressed when the name ends in .gz)");
  process.exit(2);
}

const target = targetFromEnv();
const database = await openDatabase(target).catch((error: unknown) => {
  if (!(error instanceof DataDirInUseError)) throw error;
  console.error(
    `${error.message}\nThe embedded database is backed up with the server stopped: stop it, run the backup, start it again. ` +
      "(On PostgreSQL a backup runs while the server serves.)",
  );
  process.exit(1);
});

// Written beside the file and renamed at the end: a backup cut short never takes the file's name.
const partial = `${file}.partial`;
const output = createWriteStream(partial);
const gzip = file.endsWith(".gz") ? createGzip() : null;
if (gzip) gzip.pipe(output);
const sink: Writable = gzip ?? output;
try {
  const { projects, runs } = await backupServer(database.prisma, async (line) => {
    if (!sink.write(`${JSON.stringify(line)}\n`)) await once(sink, "drain");
  });
  sink.end();
  await once(output, "close");
  await rename(partial, file);
  console.log(`Backed up ${projects} project(s), ${runs} run(s) from ${describeTarget(target)} to ${file}.`);
} catch (error) {
  output.destroy();
  await rm(partial, { force: true });
  throw error;
} finally {
  await database.close();
}

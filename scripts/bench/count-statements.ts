// npx tsx scripts/bench/count-statements.ts [postgres-url]
// Counts the SQL statements (each one a round trip) of a 50-endpoint k6 summary upload as the REST route
// makes it: admission (admit: the caller, its rate limits; authorizeUpload: the project), then uploadRun
// (replay check, gate history, the transaction with BEGIN and COMMIT). A throw-away PostgreSQL database;
// every statement any pg client sends is counted (node-postgres's Client.query), by phase.
import pg from "pg";
import { openDatabase } from "../../server/db";
import { runMetadataSchema } from "../../server/domain/parsers";
import { admit, clientAddress } from "../../server/http/auth";
import { authorizeUpload, uploadOfFiles, uploadRun } from "../../server/services/ingest";
import { DEFAULT_POSTGRES_URL, preparePostgres } from "./backends";
import { synthesizeWideSummary } from "./scale";
import path from "node:path";
import { ROOT } from "../lib/build";

process.env.BENCHTRACK_ADMIN_TOKEN ??= "benchtrack-count-admin-secret";
process.env.BENCHTRACK_RATE_UPLOADS_PER_MINUTE ??= "1000";
const FIXTURE = path.join(ROOT, "server", "domain", "parsers", "fixtures", "k6", "baseline", "round1", "summary.json");
const statements: string[] = [];
// eslint-disable-next-line @typescript-eslint/unbound-method -- applied to its own client below
const originalQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const text = typeof args[0] === "string" ? args[0] : (args[0] as { text?: string }).text ?? "?";
  statements.push(text.replace(/\s+/g, " ").slice(0, 90));
  return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
} as typeof pg.Client.prototype.query;

const backend = await preparePostgres(process.argv[2] ?? DEFAULT_POSTGRES_URL);
const database = await openDatabase({ kind: "postgres", url: backend.env.DATABASE_URL! });
const db = database.prisma;
const body = synthesizeWideSummary(FIXTURE);
const slug = "count-wide";
const upload = async (round: number, log: boolean) => {
  const request = new Request(`http://127.0.0.1/api/v1/projects/${slug}/runs`, { method: "POST", headers: { authorization: `Bearer ${process.env.BENCHTRACK_ADMIN_TOKEN}` } });
  statements.length = 0;
  const principal = await admit(request, db, "upload");
  const admitted = statements.length;
  const target = await authorizeUpload(db, principal, slug, clientAddress(request));
  const authorized = statements.length;
  await uploadRun(db, {
    target,
    upload: uploadOfFiles([{ name: "summary.json", contentType: "application/json", bytes: Buffer.from(body) }]),
    query: { format: null, metadata: runMetadataSchema.parse({ label: "nightly", branch: "main", round }), idempotencyKey: null, failOn: null },
    baseUrl: "http://127.0.0.1",
  });
  if (log) {
    console.log(`admission ${authorized} (admit ${admitted}, authorizeUpload ${authorized - admitted}); upload ${statements.length - authorized}; total ${statements.length}`);
    statements.forEach((text, index) => console.log(`  ${String(index + 1).padStart(2)} ${text}`));
  }
};
try {
  for (let round = 1; round <= 12; round++) await upload(round, false);
  await upload(13, true);
} finally {
  await database.close();
  await backend.dispose();
}

// npx tsx scripts/bench/go-bench-upload.ts [postgres-url]
// The in-process upload time (uploadRun: parse, gate history, judge, transaction) of a `go test -bench`
// file of 1,000 and of 10,000 benchmarks on PostgreSQL: 5 uploads each into one series, the first
// creating the project, the times (admission's project read included) of rounds 2-5 (judged against the earlier ones) printed.
import { openDatabase } from "../../server/db";
import { runMetadataSchema } from "../../server/domain/parsers";
import { authorizeUpload, uploadOfFiles, uploadRun } from "../../server/services/ingest";
import { DEFAULT_POSTGRES_URL, preparePostgres } from "./backends";
import { goBenchText } from "./isolation";
import { warmCpuPool } from "../../server/services/platform";

const backend = await preparePostgres(process.argv[2] ?? DEFAULT_POSTGRES_URL);
const database = await openDatabase({ kind: "postgres", url: backend.env.DATABASE_URL! });
// As the server does at start (instrumentation.ts): a CPU thread ready before the first upload that needs one.
await warmCpuPool();
try {
  for (const count of [1000, 10000]) {
    const times: number[] = [];
    for (let round = 1; round <= 5; round++) {
      const body = goBenchText(count, { shift: round });
      const started = performance.now();
      await uploadRun(database.prisma, {
        target: await authorizeUpload(database.prisma, { kind: "admin" }, `go-${count}`),
        upload: uploadOfFiles([{ name: "bench.txt", contentType: "text/plain", bytes: Buffer.from(body) }]),
        query: { format: null, metadata: runMetadataSchema.parse({ label: "nightly", branch: "main", commit: `c0ffee${round}` }), idempotencyKey: null, failOn: null },
        baseUrl: "http://127.0.0.1",
      });
      times.push(performance.now() - started);
    }
    console.log(`${count} benchmarks: round 1 ${times[0]!.toFixed(0)} ms; rounds 2-5 ${times.slice(1).map((t) => t.toFixed(0)).join(", ")} ms`);
  }
} finally {
  await database.close();
  await backend.dispose();
}

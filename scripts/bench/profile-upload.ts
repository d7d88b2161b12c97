// npm run bench:profile [-- --uploads 200 --concurrency 8 --embedded]
//
// A CPU profile of the upload use case (server/services/ingest/upload-run.ts) in this process, without HTTP:
// 50-endpoint k6 summaries (the bench's wide upload), each a distinct round of one series on main, so
// each is judged against its baseline and queues change-point detection, as `npm run bench` uploads
// them. A throw-away database (PostgreSQL on 127.0.0.1:5432 unless --embedded), 40 uploads to warm up
// and fill the baseline, then `--uploads` profiled with the V8 sampling profiler. Prints uploads/s and
// the top self-time costs, grouped by function and by package, and writes the .cpuprofile (open it in
// Chrome's DevTools) to bench-results/upload.cpuprofile. Queued jobs are not run: the detection job is
// measured apart (it runs off the request path).
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { openDatabase } from "../../server/db";
import { runMetadataSchema } from "../../server/domain/parsers";
import { findProject } from "../../server/services/projects";
import { uploadRun } from "../../server/services/ingest";
import { uploadOfFiles } from "../../server/services/ingest";
import { runQueuedJobs } from "../../server/jobs/worker";
import { jobQueueOf } from "../../server/services/platform";
import { ROOT } from "../lib/build";
import { cpuProfileOf, packageOf } from "./cpu-profile";
import type { ProfileNode } from "./cpu-profile";
import { DEFAULT_POSTGRES_URL, prepareEmbedded, preparePostgres } from "./backends";
import { synthesizeWideSummary } from "./scale";

const { values: args } = parseArgs({
  options: {
    uploads: { type: "string", default: "200" },
    concurrency: { type: "string", default: "8" },
    embedded: { type: "boolean", default: false },
  },
});
const UPLOADS = Number(args.uploads);
const CONCURRENCY = Number(args.concurrency);
const WARM_UP = 40;
const SLUG = "profile-wide";
const FIXTURE = path.join(ROOT, "server", "domain", "parsers", "fixtures", "k6", "baseline", "round1", "summary.json");

function topSelfTimes(nodes: readonly ProfileNode[], key: (node: ProfileNode) => string, totalHits: number, count: number) {
  const hits = new Map<string, number>();
  for (const node of nodes) hits.set(key(node), (hits.get(key(node)) ?? 0) + (node.hitCount ?? 0));
  return [...hits.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, hit]) => `${((100 * hit) / totalHits).toFixed(1).padStart(5)}%  ${name}`);
}

async function main() {
  const backend = args.embedded ? await prepareEmbedded() : await preparePostgres(DEFAULT_POSTGRES_URL);
  const database = await openDatabase(
    backend.kind === "embedded" ? { kind: "embedded", dataDir: backend.env.BENCHTRACK_DATA_DIR! } : { kind: "postgres", url: backend.env.DATABASE_URL! },
  );
  const db = database.prisma;
  const body = synthesizeWideSummary(FIXTURE);
  const uploadOne = async (round: number) => {
    const answer = await uploadRun(db, {
      target: { projectSlug: SLUG, project: await findProject(db, SLUG), mayCreateProject: true },
      upload: uploadOfFiles([{ name: "summary.json", contentType: "application/json", bytes: Buffer.from(body) }]),
      query: { format: null, metadata: runMetadataSchema.parse({ label: "nightly", branch: "main", round }), idempotencyKey: null, failOn: null },
      baseUrl: "http://localhost:3000",
    });
    if (!answer.created) throw new Error(`upload ${round} was not created`);
  };
  const runAll = async (from: number, count: number) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < count) await uploadOne(from + next++);
      }),
    );
  };
  try {
    for (let round = 0; round < WARM_UP; round++) await uploadOne(round);
    const { ms, profile } = await cpuProfileOf(() => runAll(1000, UPLOADS));
    const seconds = ms / 1000;

    const { nodes } = profile;
    const idle = new Set(["(idle)", "(program)"]);
    const busy = nodes.filter((node) => !idle.has(node.callFrame.functionName));
    const totalHits = busy.reduce((sum, node) => sum + (node.hitCount ?? 0), 0);
    const sampleMs = (profile.endTime - profile.startTime) / 1000 / Math.max(1, nodes.reduce((sum, node) => sum + (node.hitCount ?? 0), 0));
    mkdirSync(path.join(ROOT, "bench-results"), { recursive: true });
    writeFileSync(path.join(ROOT, "bench-results", "upload.cpuprofile"), JSON.stringify(profile));
    console.log(`${backend.description}: ${UPLOADS} 50-endpoint uploads, ${CONCURRENCY} in flight, in this process`);
    console.log(`${(UPLOADS / seconds).toFixed(1)} uploads/s; ${((totalHits * sampleMs) / UPLOADS).toFixed(1)} ms of this process's CPU per upload`);
    console.log("\nTop self time by function (share of busy samples):");
    for (const line of topSelfTimes(busy, (node) => `${node.callFrame.functionName || "(anonymous)"}  ${packageOf(node.callFrame.url)}:${node.callFrame.lineNumber + 1}`, totalHits, 15)) console.log(line);
    console.log("\nTop self time by package or file:");
    for (const line of topSelfTimes(busy, (node) => packageOf(node.callFrame.url), totalHits, 15)) console.log(line);
    // The detection job the uploads queued (coalesced per series), run now as a worker would: its CPU
    // is spent in the server's process too, off the request path.
    const queue = await jobQueueOf(database);
    const before = process.cpuUsage();
    const jobsStarted = performance.now();
    await runQueuedJobs({ db, queue });
    const cpu = process.cpuUsage(before);
    console.log(
      `\nQueued jobs afterwards (change-point detection over the series' ${WARM_UP + UPLOADS} runs): ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms of CPU, ${(performance.now() - jobsStarted).toFixed(0)} ms`,
    );
  } finally {
    await database.close();
    await backend.dispose();
  }
}

await main();

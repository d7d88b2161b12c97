// npx tsx scripts/bench/profile-go-bench.ts [--count 10000] [--rounds 5]
//
// Where a judged `go test -bench` upload's time goes (scripts/bench/go-bench-upload.ts measures the whole):
// rounds 1 to rounds-1 uploaded through uploadRun on a throw-away PostgreSQL database, then the last round
// taken apart, phase by phase, with the same functions uploadRun calls (parse, gate history, judge in
// the CPU thread and in this thread, the structured clone of the judge's input, store, answer), then
// uploaded whole under the V8 sampling profiler (this thread's CPU; the judge thread's is the in-process
// judge's profile, printed apart).
import { parseArgs } from "node:util";
import { openDatabase } from "../../server/db";
import { runMetadataSchema, parseUploadedRun } from "../../server/domain/parsers";
import { authorizeUpload, uploadOfFiles, uploadRun } from "../../server/services/ingest";
import { readGateHistory, judgeWithHistoryOffThread } from "../../server/services/gate";
// eslint-disable-next-line @typescript-eslint/no-restricted-imports -- a profile takes the use case apart: the judge in this thread
import { judgeWithHistory, gateAnswer } from "../../server/services/gate/run-gate";
import { asStoredRun, newRunId, runIdentityOf } from "../../server/services/runs";
import { parseInPool, warmCpuPool, closeCpuPool } from "../../server/services/platform";
// eslint-disable-next-line @typescript-eslint/no-restricted-imports -- a profile takes the use case apart: the store alone
import { storeRun } from "../../server/services/ingest/store-run";
import { toComparable } from "../../server/services/compare";
import { DEFAULT_POSTGRES_URL, preparePostgres } from "./backends";
import { goBenchText } from "./isolation";
import { cpuProfileOf, packageOf } from "./cpu-profile";
import type { ProfileNode } from "./cpu-profile";

const { values: args } = parseArgs({ options: { count: { type: "string", default: "10000" }, rounds: { type: "string", default: "5" } } });
const COUNT = Number(args.count);
const ROUNDS = Number(args.rounds);
const SLUG = `go-${COUNT}`;

async function profiled<T>(work: () => Promise<T> | T): Promise<{ value: T; top: string[]; ms: number }> {
  const { value, ms, profile } = await cpuProfileOf(work);
  const { nodes } = profile;
  const total = nodes.reduce((sum, node) => sum + (node.hitCount ?? 0), 0);
  const sampleMs = (profile.endTime - profile.startTime) / 1000 / Math.max(1, total);
  const hits = new Map<string, number>();
  const parents = new Map<number, ProfileNode>();
  for (const node of nodes) for (const child of node.children ?? []) parents.set(child, node);
  // An anonymous function is named after its nearest named caller ("(anonymous in compareRuns)").
  const nameOf = (node: ProfileNode): string => {
    if (node.callFrame.functionName) return node.callFrame.functionName;
    for (let parent = parents.get(node.id); parent; parent = parents.get(parent.id)) {
      if (parent.callFrame.functionName && parent.callFrame.url !== "") return `(anonymous in ${parent.callFrame.functionName})`;
    }
    return "(anonymous)";
  };
  for (const node of nodes) {
    const key = `${nameOf(node)}  ${packageOf(node.callFrame.url)}`;
    hits.set(key, (hits.get(key) ?? 0) + (node.hitCount ?? 0));
  }
  const top = [...hits.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 25)
    .map(([name, hit]) => `${(hit * sampleMs).toFixed(0).padStart(6)} ms ${((100 * hit) / total).toFixed(1).padStart(5)}%  ${name}`);
  return { value, top, ms };
}

const backend = await preparePostgres(DEFAULT_POSTGRES_URL);
const database = await openDatabase({ kind: "postgres", url: backend.env.DATABASE_URL! });
const db = database.prisma;
await warmCpuPool();
const metadataOf = (round: number) => runMetadataSchema.parse({ label: "nightly", branch: "main", commit: `c0ffee${round}` });
const upload = async (round: number) => {
  const started = performance.now();
  await uploadRun(db, {
    target: await authorizeUpload(db, { kind: "admin" }, SLUG),
    upload: uploadOfFiles([{ name: "bench.txt", contentType: "text/plain", bytes: Buffer.from(goBenchText(COUNT, { shift: round })) }]),
    query: { format: null, metadata: metadataOf(round), idempotencyKey: null, failOn: null },
    baseUrl: "http://127.0.0.1",
  });
  return performance.now() - started;
};
const phase = async <T>(name: string, work: () => Promise<T> | T): Promise<T> => {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const value = await work();
  const used = process.cpuUsage(cpu);
  console.log(`${name.padEnd(52)} ${(performance.now() - started).toFixed(0).padStart(6)} ms, ${((used.user + used.system) / 1000).toFixed(0).padStart(6)} ms CPU`);
  return value;
};
try {
  for (let round = 1; round < ROUNDS; round++) console.log(`round ${round}: ${(await upload(round)).toFixed(0)} ms`);
  const round = ROUNDS;
  console.log(`\nround ${round}, phase by phase (${COUNT} benchmarks, ${round - 1} earlier runs):`);
  const body = Buffer.from(goBenchText(COUNT, { shift: round }));
  const received = await phase("uploadOfFiles (gzip, hash)", () => uploadOfFiles([{ name: "bench.txt", contentType: "text/plain", bytes: body }]));
  const target = await phase("authorizeUpload", () => authorizeUpload(db, { kind: "admin" }, SLUG));
  const files = received.kind === "files" ? received.files.map(({ name, text }) => ({ name, text })) : [];
  const task = { files, format: null, metadata: metadataOf(round) };
  const parsed = await phase("parse in the CPU thread (parseInPool)", () => parseInPool(task));
  await phase("parse in this thread (parseUploadedRun)", () => parseUploadedRun(task));
  const project = target.project!;
  const id = newRunId();
  const now = new Date();
  const read = { base: { commit: null, branch: null, time: null }, ab: null };
  const loaded = asStoredRun(parsed.run, { id, uploadedAt: now, startedAt: now, idempotencyKey: null, isDemo: false, abPair: null, budget: null });
  const head = runIdentityOf(parsed.run, id, now, read);
  const history = await phase("readGateHistory", () => readGateHistory(db, project, head));
  console.log(`  (baseline ${history.baseRuns.length} runs, noise-only ${history.noiseOnlyRuns.length}, other rounds ${history.otherRounds.length})`);
  await phase("structuredClone of history + head", () => structuredClone({ history: { ...history, baseline: null }, head: toComparable(loaded) }));
  const offThread = await phase("judge in the CPU thread (judgeWithHistoryOffThread)", () => judgeWithHistoryOffThread(project, history, loaded, []));
  await phase("structuredClone of the gate result", () => structuredClone({ ...offThread, run: null }));
  const inThread = await phase("judge in this thread (judgeWithHistory)", () => judgeWithHistory(project, history, loaded, []));
  await phase("judge in this thread again", () => judgeWithHistory(project, history, loaded, []));
  if (JSON.stringify({ ...inThread, run: null }) !== JSON.stringify({ ...offThread, run: null })) console.log("!! the two judgements differ");
  const rollback = new Error("rolled back");
  await phase("storeRun (in a transaction rolled back)", () =>
    db
      .$transaction(async (tx) => {
        await storeRun(tx, project.id, { run: parsed.run, format: parsed.format, sha256: `${id}`, rawFiles: received.kind === "files" ? received.files : [], ...read, budget: null }, { id, uploadedAt: now, startedAt: now, idempotencyKey: null, gate: { outcome: inThread.outcome, outcomeReasons: inThread.reasons, regressed: false, gateChanges: [] } });
        throw rollback;
      }, { timeout: 60_000 })
      .catch((error: unknown) => {
        if (error !== rollback) throw error;
      }),
  );
  await phase("gateAnswer", () => gateAnswer(db, project, inThread, "http://127.0.0.1"));
  const parseProfile = await profiled(() => parseUploadedRun(task));
  console.log(`\nCPU profile of the parse in this thread (${parseProfile.ms.toFixed(0)} ms), top self time:`);
  for (const line of parseProfile.top) console.log(line);
  const judgeProfile = await profiled(() => judgeWithHistory(project, history, loaded, []));
  console.log(`\nCPU profile of the judge in this thread (${judgeProfile.ms.toFixed(0)} ms), top self time:`);
  for (const line of judgeProfile.top) console.log(line);
  const whole = await profiled(() => upload(round));
  console.log(`\nCPU profile of round ${round} uploaded whole (${whole.ms.toFixed(0)} ms, this thread), top self time:`);
  for (const line of whole.top) console.log(line);
} finally {
  await database.close();
  await closeCpuPool();
  await backend.dispose();
}

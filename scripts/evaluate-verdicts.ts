/**
 * Evaluates the CI verdict end to end: every upload goes through the upload use case (`uploadRun`, as
 * `POST …/runs` does) on a fresh embedded database, and the verdict it answers is counted.
 *
 *   npm run evaluate:verdicts [-- --trials=40 --seed=1 --cv=3]
 *
 * 1. Real rounds (the bundled fixtures: k6 summaries, Locust CSV sets, ghz reports; rounds 1–3 of the
 *    same service, nothing changed between them). The baseline rounds go up in order, tools
 *    interleaved, under one label on main: every `fail` is a false alarm. Then each ManagedAsync round
 *    (the same service with a real slowdown) goes up on a PR branch: every `pass` is a miss.
 * 2. Synthetic series: five endpoints (5 to 80 ms, 5,000 requests each), run-to-run noise with
 *    coefficient of variation `cv` % (shared by an endpoint's percentiles, as real runs are), eight
 *    unchanged uploads on main per trial (false alarms per upload, once a baseline exists), then one
 *    PR upload slowed by 0, 10, 20 or 50 % on one endpoint, and on all of them (power).
 * Deterministic: same seed, same figures.
 */
import { parseArgs } from "node:util";
import { runMetadataSchema } from "../server/domain/parsers";
import { createSeededRandom, type SeededRandom } from "../server/domain/stats/random";
import type { PrismaClient } from "../server/generated/prisma/client";
import { openMigratedDatabase } from "../server/testing/databases";
import { findProject } from "../server/services/projects";
import type { ReceivedUpload } from "../server/services/received-upload";
import { uploadOfFiles } from "../server/services/received-upload";
import { uploadRun } from "../server/services/upload-run";
import { FIXTURE_ROUNDS, readFixtureUpload } from "./seed/fixture-uploads";
import type { FixtureKind } from "./seed/fixture-uploads";

const { values: args } = parseArgs({
  options: { trials: { type: "string", default: "40" }, seed: { type: "string", default: "1" }, cv: { type: "string", default: "3" } },
});
const TRIALS = Number(args.trials);
const SEED = Number(args.seed);
const CV = Number(args.cv) / 100;
const START = Date.UTC(2026, 0, 1);
const hour = (index: number) => new Date(START + index * 3_600_000).toISOString();

type Answer = Awaited<ReturnType<typeof uploadRun>>["json"];

async function upload(db: PrismaClient, slug: string, body: ReceivedUpload, metadata: Record<string, unknown>): Promise<Answer> {
  const answer = await uploadRun(db, {
    target: { projectSlug: slug, project: await findProject(db, slug), mayCreateProject: true },
    upload: body,
    query: { format: null, metadata: runMetadataSchema.parse(metadata), idempotencyKey: null, failOn: ["regression"] },
    baseUrl: "http://localhost:3000",
  });
  return answer.json;
}

function why(answer: Answer): string {
  const regressions = answer.comparison.regressions.map(
    (regression) => `${regression.endpoint ?? "all"} ${regression.metric} ${regression.deltaPct?.toFixed(1)}% p=${regression.pValue?.toExponential(1)}`,
  );
  return regressions.length > 0 ? regressions.join("; ") : `(${answer.comparison.baseline.how})`;
}

const pct = (count: number, total: number) => `${count}/${total} (${total === 0 ? "–" : ((100 * count) / total).toFixed(1)}%)`;

async function realRounds(db: PrismaClient): Promise<void> {
  const kinds: FixtureKind[] = ["k6-summary", "locust-csv", "ghz"];
  let index = 0;
  /** Every round of a variant, tools interleaved; how many answered `fail`, of how many. */
  const uploadRounds = async (variant: "baseline" | "managedasync", branchOf: (kind: FixtureKind, round: number) => string) => {
    let failed = 0;
    let total = 0;
    for (let round = 1; round <= FIXTURE_ROUNDS; round++) {
      for (const kind of kinds) {
        const answer = await upload(db, "evaluate-real", readFixtureUpload({ kind, variant, round }), {
          label: "nightly", branch: branchOf(kind, round), round, started_at: hour(index++),
        });
        total++;
        if (answer.verdict === "fail") failed++;
        console.log(`  ${kind.padEnd(11)} round ${round}: ${answer.verdict.padEnd(4)} ${why(answer)}`);
      }
    }
    return { failed, total };
  };
  console.log("Real rounds, baseline, in order under label nightly on main (a fail is a false alarm):");
  const unchanged = await uploadRounds("baseline", () => "main");
  console.log("Real rounds, ManagedAsync, each on a PR branch after them (a pass is a miss):");
  const slowed = await uploadRounds("managedasync", (kind, round) => `pr-${kind}-${round}`);
  console.log(
    `  false alarms: ${pct(unchanged.failed, unchanged.total)} of unchanged uploads; caught: ${pct(slowed.failed, slowed.total)} of slowed uploads\n`,
  );
}

const LEVELS_MS = [5, 10, 20, 40, 80];

function syntheticRun(random: SeededRandom, index: number, slowdown: { pct: number; endpoints: "one" | "all" } | null) {
  const endpoints = LEVELS_MS.map((level, position) => {
    const slowed = slowdown && (slowdown.endpoints === "all" || position === 0) ? 1 + slowdown.pct / 100 : 1;
    // One factor per endpoint and run (a run is faster or slower as a whole), a little more on the tail.
    const runFactor = 1 + random.gaussian(0, CV);
    const value = (ratio: number, extraCv: number) => level * ratio * slowed * runFactor * (1 + random.gaussian(0, extraCv));
    return {
      name: `Endpoint${position + 1}`,
      requests: 5000,
      failures: 0,
      latency: { unit: "ms", mean: value(1.1, CV / 4), p50: value(1, CV / 4), p95: value(2, CV / 2), p99: value(3, CV) },
    };
  });
  const document = { schema: "benchtrack/v1", tool: "synthetic", label: "nightly", startedAt: hour(index), endpoints };
  return uploadOfFiles([{ name: "run.json", contentType: "application/json", bytes: Buffer.from(JSON.stringify(document)) }]);
}

async function synthetic(db: PrismaClient): Promise<void> {
  const random = createSeededRandom(SEED);
  const cases = [0, 10, 20, 50].flatMap((pctSlower) =>
    (["one", "all"] as const).map((endpoints) => ({ pct: pctSlower, endpoints })),
  );
  let falseAlarms = 0;
  let judged = 0;
  const caught = new Map(cases.map((slowdown) => [`${slowdown.pct}/${slowdown.endpoints}`, 0]));
  for (let trial = 0; trial < TRIALS; trial++) {
    const slug = `evaluate-synthetic-${trial}`;
    let index = 0;
    for (let run = 0; run < 8; run++) {
      const answer = await upload(db, slug, syntheticRun(random, index++, null), { branch: "main" });
      if (answer.comparison.baseline.runs.length >= 2) {
        judged++;
        if (answer.verdict === "fail") falseAlarms++;
      }
    }
    for (const slowdown of cases) {
      const answer = await upload(db, slug, syntheticRun(random, index++, slowdown), { branch: `pr-${slowdown.pct}-${slowdown.endpoints}` });
      if (answer.verdict === "fail") caught.set(`${slowdown.pct}/${slowdown.endpoints}`, caught.get(`${slowdown.pct}/${slowdown.endpoints}`)! + 1);
    }
  }
  console.log(`Synthetic: ${TRIALS} trials, 5 endpoints × 5,000 requests, run-to-run CV ${(CV * 100).toFixed(1)}%, baseline = last 5 runs`);
  console.log(`  false alarms: ${pct(falseAlarms, judged)} of unchanged uploads on main with ≥ 2 baseline runs`);
  console.log("  PR upload slowed by | one endpoint | all endpoints");
  for (const pctSlower of [0, 10, 20, 50]) {
    const one = caught.get(`${pctSlower}/one`)!;
    const all = caught.get(`${pctSlower}/all`)!;
    console.log(`  ${`${pctSlower}%`.padStart(19)} | ${pct(one, TRIALS).padEnd(12)} | ${pct(all, TRIALS)}`);
  }
}

const database = await openMigratedDatabase({ kind: "memory" });
try {
  await realRounds(database.prisma);
  await synthetic(database.prisma);
} finally {
  await database.close();
}

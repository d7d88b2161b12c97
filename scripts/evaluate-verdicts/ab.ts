/**
 * Same-job A/B jobs of a load test (docs/statistics.md, "A/B jobs"), on the pure path: a pull request's
 * job runs the merge-base and the head ABBA, pair by pair, each pair's runs uploaded and the job's head
 * runs judged against its own base runs (ab-comparison.ts) with the series' 20 runs on main lending their
 * noise, and stops when the answer says so (ab-job.ts), at most MAX_PAIRS pairs. Two noise models:
 * **independent**, every run its own noise (per run and endpoint 1 + N(0, CV), nothing shared: the worst
 * case for an A/B job), and **shared**, half of each run's variance the job's (the runner it got, its
 * neighbours that hour), the other half the run's own: what A/B jobs are for.
 */
import { describeAbJob } from "../../server/domain/gate/ab-job";
import type { AbJobRun } from "../../server/domain/gate/ab-job";
import { createSeededRandom } from "../../server/domain/stats/random";
import type { LoadedRun } from "../../server/services/runs";
import type { EvaluationOptions, PartReport, TargetCheck } from "./shared";
import { hourAt, judgePure, LEVELS_MS, loadedOfDocument, percent, syntheticDocument, table, Tally } from "./shared";

export const MAX_PAIRS = 6;
const HISTORY_RUNS = 20;
const MODELS = ["independent", "shared"] as const;

interface Cell {
  tally: Tally;
  pairs: number[];
}

export async function runAb(options: EvaluationOptions): Promise<PartReport> {
  const started = performance.now();
  const cells = new Map<string, Cell>();
  const cellOf = (key: string) => {
    if (!cells.has(key)) cells.set(key, { tally: new Tally(), pairs: [] });
    return cells.get(key)!;
  };
  const cases = (cv: number) => [
    { key: "unchanged", label: "unchanged", pct: 0 },
    { key: "4cv", label: `one endpoint +4×CV (${+(4 * cv * 100).toFixed(2)}%)`, pct: 4 * cv * 100 },
    { key: "6cv", label: `one endpoint +6×CV (${+(6 * cv * 100).toFixed(2)}%)`, pct: 6 * cv * 100 },
  ];
  for (const cv of options.cvs) {
    const random = createSeededRandom(options.seed * 7_000_003 + Math.round(cv * 1000));
    for (const model of MODELS) {
      // The job's share of a run's variance; what is left is the run's own.
      const sharedSd = model === "shared" ? cv / Math.SQRT2 : 0;
      const ownCv = model === "shared" ? cv / Math.SQRT2 : cv;
      for (let trial = 0; trial < options.trials; trial++) {
        const history: LoadedRun[] = Array.from({ length: HISTORY_RUNS }, (_, index) =>
          loadedOfDocument(syntheticDocument(random, { levels: LEVELS_MS, requests: 5000, cv }, hourAt(index), null), `main-${index}`, { branch: "main" }),
        );
        for (const { key, pct } of cases(cv)) {
          const shared = LEVELS_MS.map(() => 1 + random.gaussian(0, sharedSd));
          const runModel = { levels: LEVELS_MS, requests: 5000, cv: ownCv };
          const base: LoadedRun[] = [];
          const head: LoadedRun[] = [];
          const jobRuns: AbJobRun[] = [];
          let answer: ReturnType<typeof judgePure> | null = null;
          let used = 0;
          for (let pair = 1; pair <= MAX_PAIRS; pair++) {
            // ABBA: the order does not matter to these independent draws, but the job's runs alternate as in CI.
            const at = hourAt(HISTORY_RUNS + pair);
            const baseRun = loadedOfDocument(syntheticDocument(random, runModel, at, null, shared), `b-${pair}`, { branch: "pr" }, pair);
            const headRun = loadedOfDocument(syntheticDocument(random, runModel, at, pct === 0 ? null : { pct, endpoints: "one" }, shared), `h-${pair}`, { branch: "pr" }, pair);
            base.unshift(baseRun);
            head.unshift(headRun);
            jobRuns.push({ id: baseRun.stored.id, side: "base", pair }, { id: headRun.stored.id, side: "head", pair });
            answer = judgePure(base, head, [...history].reverse());
            used = pair;
            const judged = { outcome: answer.outcome, inconclusive: answer.kind === null ? null : { kind: answer.kind, reason: "" } };
            if (describeAbJob("job", jobRuns.at(-1)!, jobRuns, judged).next === "stop") break;
          }
          const cell = cellOf(`${cv}|${model}|${key}`);
          cell.tally.add(answer!.outcome, answer!.kind);
          cell.pairs.push(used);
        }
      }
    }
  }
  const meanPairs = (cell: Cell | undefined) => (cell && cell.pairs.length > 0 ? (cell.pairs.reduce((sum, value) => sum + value, 0) / cell.pairs.length).toFixed(2) : "–");
  const sections: string[] = [];
  for (const model of MODELS) {
    const rows = options.cvs.flatMap((cv) =>
      cases(cv).map(({ key, label }) => {
        const cell = cells.get(`${cv}|${model}|${key}`);
        return [`CV ${cv * 100}%`, label, percent(cell?.tally.rate("fail") ?? null), percent(cell?.tally.rate("inconclusive") ?? null), percent(cell?.tally.rate("pass") ?? null), meanPairs(cell)];
      }),
    );
    sections.push(`#### ${model === "independent" ? "Independent runs (nothing shared within a job)" : "Shared noise (half of each run's variance the job's)"}\n\n${table(["CV", "head", "fail", "inconclusive", "pass", "mean pairs"], rows)}`);
  }
  const targets: TargetCheck[] = [];
  for (const model of MODELS) {
    const worstAlarm = Math.max(...options.cvs.map((cv) => cells.get(`${cv}|${model}|unchanged`)?.tally.rate("fail") ?? 0));
    const lowestPower = Math.min(...options.cvs.map((cv) => cells.get(`${cv}|${model}|4cv`)?.tally.rate("fail") ?? 0));
    const mostPairs = Math.max(...options.cvs.map((cv) => Number(meanPairs(cells.get(`${cv}|${model}|unchanged`)))));
    targets.push({
      target: `A/B jobs (${model} noise): ≥ 95% power at 4×CV, ≤ 1% false alarms, ≤ 1.5 pairs on average when nothing changed`,
      figure: `power ${percent(lowestPower)} (lowest CV); false alarms ${percent(worstAlarm)} (highest CV); ${mostPairs.toFixed(2)} pairs (most, unchanged)`,
      met: lowestPower >= 0.95 && worstAlarm <= 0.01 && mostPairs <= 1.5,
    });
  }
  return {
    title: "A/B jobs of a load test (pure path)",
    method:
      `Pure path (\`decideFromRuns\`), ${options.trials} jobs per cell, CV ${options.cvs.map((cv) => `${cv * 100}%`).join(", ")}; ` +
      `each job: 20 runs of history on main (lending their noise), then pairs of a base and a head run (5 endpoints, 5,000 requests), ` +
      `judged after each pair and stopped when the answer says so, at most ${MAX_PAIRS} pairs.`,
    body: sections.join("\n\n"),
    targets,
    seconds: (performance.now() - started) / 1000,
  };
}

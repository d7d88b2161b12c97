/**
 * The grid, on the pure path: too many uploads for the embedded database, so each synthetic run is
 * built as the upload reads it (the domain parser) and judged by `decideFromRuns`, the function
 * `judgeRun` itself calls after choosing and loading the runs. On a series with no change and no failed
 * run, chooseBaseline yields the last h runs of main, newest first: that is the baseline here.
 */
import { chooseBaselineWindow } from "../../server/domain/gate/baseline-window";
import { createSeededRandom } from "../../server/domain/stats/random";
import type { LoadedRun } from "../../server/services/runs";
import type { EvaluationOptions, PartReport, PureAnswer, Slowdown, TargetCheck } from "./shared";
import { hourAt, judgePure, LEVELS_MS, loadedOfDocument, percent, syntheticDocument, table, Tally } from "./shared";

export const HISTORIES = [5, 10, 20, 30];
const HISTORY_RUNS = 30;
/** Three uploads of the same commit judged together, against this many runs of history. */
const POOLED_HISTORY = 10;
const POOLED_ROUNDS = 3;

interface Case {
  key: string;
  label: string;
  slowdown: Slowdown;
}

export function casesFor(cv: number): Case[] {
  const one = [0, 5, 10, 20, 30, 50].map((pct) => ({ key: `one-${pct}`, label: pct === 0 ? "unchanged (0%)" : `one endpoint +${pct}%`, slowdown: { pct, endpoints: "one" as const } }));
  const multiples = [4, 6].map((times) => ({
    key: `one-${times}cv`,
    label: `one endpoint +${times}×CV (${+(times * cv * 100).toFixed(2)}%)`,
    slowdown: { pct: +(times * cv * 100).toFixed(6), endpoints: "one" as const },
  }));
  const all = [5, 10, 20, 30, 50].map((pct) => ({ key: `all-${pct}`, label: `all five +${pct}%`, slowdown: { pct, endpoints: "all" as const } }));
  return [...one, ...multiples, ...all];
}

/** A seed of its own for each CV, so adding a CV to the list leaves the others' figures as they were. */
const seedFor = (seed: number, cv: number) => seed * 1_000_003 + Math.round(cv * 1000);

export interface SyntheticResult {
  /** `${cv}|${case}|${history or "pooled"}` → outcomes. */
  cells: Map<string, Tally>;
  /** Per CV: unchanged main uploads judged against the runs before them (up to 30). */
  series: Map<number, Tally>;
  /** The same, every run that failed left out of later baselines (the rule before the failed-streak one). */
  seriesLeavingOut: Map<number, Tally>;
  /** The same, each baseline chosen by the product's own window (`chooseBaselineWindow`, series mode, no change). */
  seriesProduct: Map<number, Tally>;
  /** Per CV: the fewest runs of history at which the gate judged (anything but too-little-history). */
  minHistory: Map<number, number | null>;
}

export function runSynthetic(options: EvaluationOptions): SyntheticResult {
  const cells = new Map<string, Tally>();
  const series = new Map<number, Tally>();
  const seriesLeavingOut = new Map<number, Tally>();
  const seriesProduct = new Map<number, Tally>();
  const minHistory = new Map<number, number | null>();
  const count = (key: string, answer: PureAnswer) => {
    if (!cells.has(key)) cells.set(key, new Tally());
    cells.get(key)!.add(answer.outcome, answer.kind);
  };
  for (const cv of options.cvs) {
    const random = createSeededRandom(seedFor(options.seed, cv));
    const model = { levels: LEVELS_MS, requests: 5000, cv };
    const cases = casesFor(cv);
    const seriesTally = new Tally();
    const leavingOutTally = new Tally();
    const productTally = new Tally();
    let fewest: number | null = null;
    for (let trial = 0; trial < options.trials; trial++) {
      const history: LoadedRun[] = [];
      for (let index = 0; index < HISTORY_RUNS; index++) {
        history.push(loadedOfDocument(syntheticDocument(random, model, hourAt(index), null), `main-${index}`, { branch: "main" }));
      }
      // Series mode: each unchanged upload on main against the runs before it (newest first, at most 30).
      for (let k = 1; k < HISTORY_RUNS; k++) {
        const answer = judgePure(history.slice(Math.max(0, k - 30), k).reverse(), [history[k]!]);
        if (answer.kind === "too-little-history") continue;
        fewest = fewest === null ? k : Math.min(fewest, k);
        seriesTally.add(answer.outcome, answer.kind);
      }
      // The product's window: each run's `regressed` as its own answer set it, newest first.
      const judged: { run: LoadedRun; regressed: boolean }[] = [];
      for (const run of history) {
        const window = chooseBaselineWindow(
          [...judged].reverse().map(({ run: earlier, regressed }) => ({ id: earlier.stored.id, startedAt: earlier.stored.startedAt, uploadedAt: earlier.stored.uploadedAt, regressed })),
          [],
          "series",
        );
        const byId = new Map(judged.map(({ run: earlier }) => [earlier.stored.id, earlier]));
        const answer = judgePure(window.runIds.map((id) => byId.get(id)!), [run]);
        judged.push({ run, regressed: answer.regressed });
        if (answer.kind !== "too-little-history") productTally.add(answer.outcome, answer.kind);
      }
      // Every run whose gate found a regression left out of later baselines (the earlier rule).
      const kept: LoadedRun[] = [];
      for (const run of history) {
        const answer = judgePure([...kept].reverse().slice(0, 30), [run]);
        if (!answer.regressed) kept.push(run);
        if (answer.kind !== "too-little-history") leavingOutTally.add(answer.outcome, answer.kind);
      }
      let hour = HISTORY_RUNS;
      for (const { key, slowdown } of cases) {
        const head = loadedOfDocument(syntheticDocument(random, model, hourAt(hour++), slowdown), `pr-${key}`, { branch: `pr-${key}` });
        for (const h of HISTORIES) count(`${cv}|${key}|${h}`, judgePure(history.slice(HISTORY_RUNS - h).reverse(), [head]));
        const rounds = Array.from({ length: POOLED_ROUNDS }, (_, round) =>
          loadedOfDocument(syntheticDocument(random, model, hourAt(hour++), slowdown), `pooled-${key}-${round}`, {
            branch: `pr-pooled-${key}`,
            commit: "c0ffee1",
          }),
        );
        count(`${cv}|${key}|pooled`, judgePure(history.slice(HISTORY_RUNS - POOLED_HISTORY).reverse(), rounds.reverse()));
      }
    }
    series.set(cv, seriesTally);
    seriesLeavingOut.set(cv, leavingOutTally);
    seriesProduct.set(cv, productTally);
    minHistory.set(cv, fewest);
  }
  return { cells, series, seriesLeavingOut, seriesProduct, minHistory };
}

/** Wilson's 95% interval of a proportion (Wilson 1927): how far a cell's rate may be from the true one by chance. */
function wilson(successes: number, total: number): [number | null, number | null] {
  if (total === 0) return [null, null];
  const z = 1.96;
  const rate = successes / total;
  const centre = (rate + (z * z) / (2 * total)) / (1 + (z * z) / total);
  const half = (z / (1 + (z * z) / total)) * Math.sqrt((rate * (1 - rate)) / total + (z * z) / (4 * total * total));
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

const cellText = (tally: Tally | undefined) => (tally ? `${percent(tally.rate("fail"))} (inc ${percent(tally.rate("inconclusive"))})` : "–");

export function reportSynthetic(options: EvaluationOptions, result: SyntheticResult): PartReport {
  const sections: string[] = [];
  const header = ["PR upload", ...HISTORIES.map((h) => `history ${h}`), `${POOLED_ROUNDS} rounds, history ${POOLED_HISTORY}`];
  for (const cv of options.cvs) {
    const rows = casesFor(cv).map(({ key, label }) => [
      label,
      ...HISTORIES.map((h) => cellText(result.cells.get(`${cv}|${key}|${h}`))),
      cellText(result.cells.get(`${cv}|${key}|pooled`)),
    ]);
    const seriesTally = result.series.get(cv)!;
    const leavingOut = result.seriesLeavingOut.get(cv)!;
    const product = result.seriesProduct.get(cv)!;
    sections.push(
      `#### CV ${cv * 100}% — fail rate (inconclusive rate), ${options.trials} trials per cell\n\n${table(header, rows)}\n\n` +
        `Unchanged uploads on main, each against the runs before it (series mode, up to 30): ${seriesTally.fail} fail of ${seriesTally.total} judged ` +
        `(${percent(seriesTally.rate("fail"))}); inconclusive ${percent(seriesTally.rate("inconclusive"))} (${seriesTally.kindsText()}); ` +
        `first judged with ${result.minHistory.get(cv) ?? "–"} runs of history (fewer: too-little-history, not counted). ` +
        `The same runs with every run that failed left out of later baselines (the earlier rule): ${leavingOut.fail} fail of ${leavingOut.total} judged (${percent(leavingOut.rate("fail"))}); ` +
        `with each baseline chosen by the product's \`chooseBaselineWindow\` (series mode, as in this checkout): ${product.fail} fail of ${product.total} judged (${percent(product.rate("fail"))}).`,
    );
  }

  const targets: TargetCheck[] = [];
  // False alarms: every cell of an unchanged PR upload, pooled included, and the series mode.
  const alarmCells: { where: string; rate: number; fails: number; total: number }[] = [];
  const cell = (where: string, tally: Tally) => ({ where, rate: tally.rate("fail")!, fails: tally.fail, total: tally.total });
  for (const cv of options.cvs) {
    for (const column of [...HISTORIES.map(String), "pooled"]) {
      const tally = result.cells.get(`${cv}|one-0|${column}`);
      if (tally?.total) alarmCells.push(cell(`CV ${cv * 100}%, ${column === "pooled" ? `${POOLED_ROUNDS} rounds at history ${POOLED_HISTORY}` : `history ${column}`}`, tally));
    }
    const seriesTally = result.series.get(cv)!;
    if (seriesTally.total) alarmCells.push(cell(`CV ${cv * 100}%, series mode on main`, seriesTally));
    const product = result.seriesProduct.get(cv)!;
    if (product.total) alarmCells.push(cell(`CV ${cv * 100}%, series mode on main, product's window`, product));
  }
  const worst = alarmCells.reduce((a, b) => (b.rate > a.rate ? b : a), alarmCells[0] ?? { where: "none", rate: 0, fails: 0, total: 0 });
  const pooledFails = alarmCells.reduce((sum, cell) => sum + cell.fails, 0);
  const pooledTotal = alarmCells.reduce((sum, cell) => sum + cell.total, 0);
  const [low, high] = wilson(worst.fails, worst.total);
  targets.push({
    target: "False alarms ≤ 2% per unchanged upload in every synthetic cell",
    figure:
      `worst cell ${percent(worst.rate)} = ${worst.fails} of ${worst.total} (${worst.where}; 95% interval ${percent(low)}–${percent(high)}) over ${alarmCells.length} cells; ` +
      `all cells together ${pooledFails} of ${pooledTotal} (${percent(pooledTotal ? pooledFails / pooledTotal : null)})`,
    met: alarmCells.every((cell) => cell.rate <= 0.02),
  });
  for (const [times, goal] of [
    [4, 0.9],
    [6, 0.99],
  ] as const) {
    const powers = options.cvs.flatMap((cv) =>
      HISTORIES.filter((h) => h >= 20).map((h) => ({ where: `CV ${cv * 100}%, history ${h}`, rate: result.cells.get(`${cv}|one-${times}cv|${h}`)?.rate("fail") ?? 0 })),
    );
    const lowest = powers.reduce((a, b) => (b.rate < a.rate ? b : a), powers[0] ?? { where: "none", rate: 0 });
    targets.push({
      target: `Power ≥ ${goal * 100}% for one endpoint slowed by ${times}×CV with ≥ 20 runs of history`,
      figure: `lowest ${percent(lowest.rate)} (${lowest.where}); ${powers.map((power) => `${power.where}: ${percent(power.rate)}`).join("; ")}`,
      met: powers.length > 0 && powers.every((power) => power.rate >= goal),
    });
  }
  return {
    title: "Synthetic grid (pure path)",
    method:
      `Pure path (\`decideFromRuns\`, the function \`judgeRun\` calls), ${options.trials} trials per CV (${options.cvs.map((cv) => `${cv * 100}%`).join(", ")}). ` +
      `Per trial: 30 unchanged runs on main (5 endpoints at 5/10/20/40/80 ms, 5,000 requests each; per run and endpoint one factor 1 + N(0, CV) on every statistic, ` +
      `independent extra jitter CV/4 on mean, p50, p90 and p99 but not p95, so p95 has run-to-run CV = CV), then for each case one fresh PR upload judged ` +
      `against the last 5, 10, 20 and 30 of them, and ${POOLED_ROUNDS} fresh uploads of one commit judged together against the last ${POOLED_HISTORY}. ` +
      `A PR upload's baseline includes failed runs, as the product's does; in series mode the product would also leave a run that failed out of later baselines ` +
      `until triaged: the series figures are given three ways (run k against runs max(0, k−30)..k−1; every failed run left out, the earlier rule; and the baseline chosen by the product's own \`chooseBaselineWindow\`). The false-alarm target counts the first and the last. Project defaults: α = 0.01, minimum effect 5%, gate metric auto; fail_on = regression.`,
    body: sections.join("\n\n"),
    targets,
  };
}

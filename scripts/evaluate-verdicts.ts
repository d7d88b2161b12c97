/**
 * Measures the CI gate (docs/statistics.md, "The CI gate"; issue 21) against the issue's targets, and
 * writes what it found as Markdown when asked:
 *
 *   npm run evaluate:verdicts -- [--part=synthetic,crosscheck,real,step,flat] [--trials=200] [--seed=1]
 *     [--cv=3,5,10] [--crosscheck-trials=10] [--step-seeds=20] [--flat-seeds=3] [--flat-runs=200]
 *     [--markdown docs/gate-evaluation.md]
 *
 * - synthetic: the grid (CV × history × slowdown) on the pure path: `decideFromRuns`, the function
 *   `judgeRun` calls, on runs parsed by the upload's own parser (too many uploads for the database);
 * - crosscheck: the same documents through `uploadRun` and the pure path, outcome by outcome;
 * - real: every bundled fixture with rounds, through `uploadRun`;
 * - step, flat: a 30% step and flat series through `uploadRun`, the detection job run after each upload.
 * Deterministic: the same arguments give the same figures. Every figure in the Markdown is the program's.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { runCrosscheck } from "./evaluate-verdicts/crosscheck";
import { runFlat } from "./evaluate-verdicts/flat";
import { runAb } from "./evaluate-verdicts/ab";
import { runReal } from "./evaluate-verdicts/real";
import type { EvaluationOptions, PartReport } from "./evaluate-verdicts/shared";
import { runStep } from "./evaluate-verdicts/step";
import { reportSynthetic, runSynthetic } from "./evaluate-verdicts/synthetic";

const PARTS = ["synthetic", "crosscheck", "real", "step", "flat", "ab"] as const;
type Part = (typeof PARTS)[number];

const { values: args } = parseArgs({
  options: {
    part: { type: "string", default: PARTS.join(",") },
    trials: { type: "string", default: "200" },
    seed: { type: "string", default: "1" },
    cv: { type: "string", default: "3,5,10" },
    "crosscheck-trials": { type: "string", default: "10" },
    "step-seeds": { type: "string", default: "20" },
    "flat-seeds": { type: "string", default: "3" },
    "flat-runs": { type: "string", default: "200" },
    markdown: { type: "string" },
  },
});

const positive = (name: string, text: string) => {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) throw new Error(`--${name} must be a whole number, got "${text}"`);
  return value;
};
const parts = args.part.split(",").map((part) => part.trim());
for (const part of parts) if (!PARTS.includes(part as Part)) throw new Error(`Unknown --part "${part}" (one of ${PARTS.join(", ")})`);
const options: EvaluationOptions = {
  trials: positive("trials", args.trials),
  seed: positive("seed", args.seed),
  cvs: args.cv.split(",").map((cv) => Number(cv) / 100),
  crosscheckTrials: positive("crosscheck-trials", args["crosscheck-trials"]),
  stepSeeds: positive("step-seeds", args["step-seeds"]),
  flatSeeds: positive("flat-seeds", args["flat-seeds"]),
  flatRuns: positive("flat-runs", args["flat-runs"]),
};
if (options.cvs.some((cv) => !(cv > 0 && cv < 1))) throw new Error(`--cv must be percentages between 0 and 100, got "${args.cv}"`);

const runners: Record<Part, () => Promise<PartReport>> = {
  synthetic: async () => reportSynthetic(options, runSynthetic(options)),
  crosscheck: () => runCrosscheck(options),
  real: () => runReal(),
  step: () => runStep(options),
  flat: () => runFlat(options),
  ab: () => runAb(options),
};

/** The code measured: the commit, and the product files changed in the working tree when the run started. */
function checkoutState(): string {
  try {
    const git = (...gitArgs: string[]) => execFileSync("git", gitArgs, { encoding: "utf8" });
    // Porcelain lines are "XY path": the status's leading space is part of the line.
    const changed = git("status", "--porcelain", "--", "server", "prisma").split("\n").filter(Boolean).map((line) => line.slice(3));
    return `commit ${git("rev-parse", "--short", "HEAD").trim()}${changed.length > 0 ? ` with uncommitted changes to ${changed.join(", ")}` : ", no uncommitted product changes"}`;
  } catch {
    return "unknown (git not available)";
  }
}
const checkout = checkoutState();

const started = performance.now();
const reports: PartReport[] = [];
for (const part of PARTS.filter((name) => parts.includes(name))) {
  const partStarted = performance.now();
  console.log(`\n## ${part}…`);
  const report = await runners[part]();
  report.seconds = (performance.now() - partStarted) / 1000;
  reports.push(report);
  console.log(`### ${report.title} (${report.seconds.toFixed(0)} s)\n\n${report.method}\n\n${report.body}\n`);
  for (const check of report.targets) console.log(`${check.met ? "MET    " : "NOT MET"}  ${check.target}: ${check.figure}`);
}
const seconds = (performance.now() - started) / 1000;

const targets = reports.flatMap((report) => report.targets);
const targetTable = [
  "| target | figure | |",
  "| --- | --- | --- |",
  ...targets.map((check) => `| ${check.target} | ${check.figure} | ${check.met ? "MET" : "NOT MET"} |`),
].join("\n");
console.log(`\nTargets:\n${targetTable}\n\nWall time ${(seconds / 60).toFixed(1)} min.`);

if (args.markdown) {
  const command = `npx tsx scripts/evaluate-verdicts.ts ${process.argv.slice(2).join(" ")}`.trim();
  const markdown = [
    "# CI gate evaluation",
    "",
    "Written by `scripts/evaluate-verdicts.ts` (issue 21); every figure below is the program's output. Do not edit by hand: run it again.",
    "",
    `- Command: \`${command}\``,
    `- Code measured: ${checkout} (when the run started).`,
    `- Parts: ${reports.map((report) => report.title).join("; ")}`,
    `- Sizes: ${options.trials} synthetic trials per cell; seed ${options.seed}; CV ${options.cvs.map((cv) => `${cv * 100}%`).join(", ")}; ` +
      `${options.crosscheckTrials} crosscheck trials; ${options.stepSeeds} step seeds; ${options.flatSeeds} flat series of ${options.flatRuns} runs per CV.`,
    `- Wall time: ${(seconds / 60).toFixed(1)} min (${reports.map((report) => `${report.title.split(" (")[0]} ${report.seconds!.toFixed(0)} s`).join(", ")}), Node ${process.version}.`,
    "- Paths: the synthetic grid goes through the pure path (`decideFromRuns` in server/domain/gate/judge.ts, the function the upload and `judgeRun` call, on runs read by the upload's own parser); " +
      "crosscheck, real, step and flat go through `uploadRun` (what `POST …/runs` calls) on a fresh embedded database. " +
      (reports.find((report) => report.title.startsWith("Crosscheck"))
        ? `Crosscheck of the two paths: ${reports.find((report) => report.title.startsWith("Crosscheck"))!.targets[0]!.figure} uploads agreed.`
        : "The crosscheck was not run in this invocation."),
    "",
    "## Targets",
    "",
    targetTable,
    "",
    ...reports.flatMap((report) => [`## ${report.title}`, "", report.method, "", report.body, ""]),
  ].join("\n");
  writeFileSync(args.markdown, markdown);
  console.log(`Wrote ${args.markdown}`);
}

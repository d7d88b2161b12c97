/**
 * The 30% step through `uploadRun`, with the detection job run after each upload (as the workers would):
 * 60 nightly runs on main (one endpoint, 10,000 requests, p95 CV 5%), then the step and 8 more runs at
 * the new level; then every regression the detector opened is acknowledged and 3 more runs follow. The
 * gate must fail at the step run itself and at every later run (naming the open regression once the
 * detector has confirmed it), and pass again once the new level is acknowledged as the baseline.
 */
import { DEFAULT_CHANGE_POINT_OPTIONS } from "../../server/domain/stats/change-points";
import { createSeededRandom } from "../../server/domain/stats/random";
import { setChangeStatus } from "../../server/services/changes";
import { openMigratedDatabase } from "../../server/testing/databases";
import type { EvaluationOptions, PartReport } from "./shared";
import { hourAt, openedRegressions, percent, runDetectionNow, table, upload, uploadOfDocument } from "./shared";

const FLAT_RUNS = 60;
const AFTER_RUNS = 8;
const ACKNOWLEDGED_RUNS = 3;
const STEP = 1.3;
const CV = 0.05;
const ENDPOINT = "GET /api/listings/:id";

export async function runStep(options: EvaluationOptions): Promise<PartReport> {
  const database = await openMigratedDatabase({ kind: "memory" });
  const rows: string[][] = [];
  let caught = 0;
  let flatFails = 0;
  let flatJudged = 0;
  let laterFails = 0;
  let laterNaming = 0;
  let detectorAtStep = 0;
  let falseOpened = 0;
  let afterAckFails = 0;
  let afterAckJudged = 0;
  try {
    for (let seed = 0; seed < options.stepSeeds; seed++) {
      const random = createSeededRandom(options.seed * 104_729 + seed);
      const slug = `step-${seed}`;
      let hour = 0;
      const nightly = (factor: number) => {
        const p95 = 100 * factor * (1 + random.gaussian(0, CV));
        const document = {
          schema: "benchtrack/v1",
          tool: "loadgen",
          label: "nightly",
          startedAt: hourAt(hour++).toISOString(),
          endpoints: [{ name: ENDPOINT, requests: 10_000, failures: 0, latency: { unit: "ms", p50: p95 / 3, p95, p99: p95 * 1.4 } }],
        };
        return upload(database.prisma, slug, uploadOfDocument(document), { branch: "main" });
      };
      let seedFlatFails = 0;
      for (let run = 0; run < FLAT_RUNS; run++) {
        const answer = await nightly(1);
        await runDetectionNow(database);
        if (answer.inconclusive?.kind === "too-little-history") continue;
        flatJudged++;
        if (answer.outcome === "fail") seedFlatFails++;
      }
      flatFails += seedFlatFails;
      const openedBefore = (await openedRegressions(database.prisma, slug)).length;
      falseOpened += openedBefore;
      const step = await nightly(STEP);
      await runDetectionNow(database);
      if (step.outcome === "fail") caught++;
      const later: string[] = [];
      for (let run = 0; run < AFTER_RUNS; run++) {
        const answer = await nightly(STEP);
        await runDetectionNow(database);
        if (answer.outcome === "fail") laterFails++;
        if (answer.comparison.baseline.openRegression !== null) laterNaming++;
        later.push(`${answer.outcome}${answer.comparison.baseline.openRegression !== null ? "*" : ""}`);
      }
      const opened = await openedRegressions(database.prisma, slug);
      const atStep = opened.some((regression) => regression.firstRun.id === step.id);
      if (atStep) detectorAtStep++;
      // Triaged: the new level is accepted; the runs after it are judged against it.
      for (const regression of opened) await setChangeStatus(database.prisma, { kind: "admin" }, slug, regression.id, { status: "acknowledged", by: "evaluation" });
      const acknowledged: string[] = [];
      for (let run = 0; run < ACKNOWLEDGED_RUNS; run++) {
        const answer = await nightly(STEP);
        await runDetectionNow(database);
        acknowledged.push(answer.inconclusive ? `${answer.outcome} (${answer.inconclusive.kind})` : answer.outcome);
        if (answer.inconclusive?.kind === "too-little-history") continue;
        afterAckJudged++;
        if (answer.outcome === "fail") afterAckFails++;
      }
      rows.push([
        String(seed),
        `${seedFlatFails}`,
        String(openedBefore),
        `${step.outcome}${step.comparison.regressions[0] ? ` (${step.comparison.regressions[0].metric} ${step.comparison.regressions[0].deltaPct?.toFixed(1)}%)` : ""}`,
        later.join(", "),
        opened.map((regression) => `${regression.metric} ${regression.deltaPct.toFixed(0)}%${regression.firstRun.id === step.id ? " at step" : ""}`).join("; ") || "none",
        acknowledged.join(", "),
      ]);
    }
  } finally {
    await database.close();
  }
  const seeds = options.stepSeeds;
  const body = [
    `Caught at the step run: ${caught} of ${seeds} (${percent(seeds ? caught / seeds : null)}). ` +
      `Later runs at the new level that fail: ${laterFails} of ${seeds * AFTER_RUNS}; that name the open regression (baseline stops before it): ${laterNaming} of ${seeds * AFTER_RUNS}. ` +
      `Detector opened a regression starting at the step run: ${detectorAtStep} of ${seeds} (it confirms a change once the new level has ${DEFAULT_CHANGE_POINT_OPTIONS.minSegmentLength} runs, the step included, ` +
      `so the runs before that fail against the level before the step because the failed runs stay out of their baselines, and the runs after it name it). ` +
      `After the regressions were acknowledged, ${ACKNOWLEDGED_RUNS} more runs at the new level: ${afterAckFails} fail of ${afterAckJudged} judged (the rest too little history since the acknowledged change). ` +
      `Flat runs before the step: ${flatFails} fail of ${flatJudged} judged (${percent(flatJudged ? flatFails / flatJudged : null)}); regressions opened before the step: ${falseOpened}.`,
    table(["seed", "flat runs that failed", "regressions before step", "step run", `next ${AFTER_RUNS} runs (* = names the open regression)`, "regressions opened", `${ACKNOWLEDGED_RUNS} runs after acknowledging`], rows),
  ].join("\n\n");
  return {
    title: "30% step on main (upload path)",
    method:
      `Upload path with detection after every upload: ${seeds} seeds × (${FLAT_RUNS} flat runs + the +30% step + ${AFTER_RUNS} more at the new level, then every opened regression acknowledged and ${ACKNOWLEDGED_RUNS} more); ` +
      `one endpoint, 10,000 requests, p95 = 100 ms × (1 + N(0, ${CV * 100}%)), p50 = p95/3, p99 = 1.4 × p95.`,
    body,
    targets: [
      { target: "A 30% step fails at the step run", figure: `${caught} of ${seeds} seeds`, met: caught === seeds },
      {
        // Not 100%: a run at the new level can draw low enough (p95 +13% for +30%) to be within the noise.
        target: "Later runs at the new level fail (≥ 99%) until the regression is acknowledged, naming it once detected",
        figure: `${laterFails} of ${seeds * AFTER_RUNS} fail; ${laterNaming} name the open regression`,
        met: laterFails >= 0.99 * seeds * AFTER_RUNS,
      },
      {
        target: "Once acknowledged, the new level is the baseline (false alarms ≤ 2%)",
        figure: `${afterAckFails} fail of ${afterAckJudged} judged`,
        met: afterAckJudged > 0 && afterAckFails / afterAckJudged <= 0.02,
      },
    ],
  };
}

/**
 * Flat series through `uploadRun`, with the detection job run after each upload: nothing changes, so
 * every regression the detector opens and every `fail` the gate answers is false.
 */
import { createSeededRandom } from "../../server/domain/stats/random";
import { openMigratedDatabase } from "../../server/testing/databases";
import type { EvaluationOptions, PartReport } from "./shared";
import { hourAt, LEVELS_MS, openedRegressions, percent, runDetectionNow, syntheticDocument, table, Tally, upload, uploadOfDocument } from "./shared";

export async function runFlat(options: EvaluationOptions): Promise<PartReport> {
  const database = await openMigratedDatabase({ kind: "memory" });
  const rows: string[][] = [];
  let opened = 0;
  let fails = 0;
  let judged = 0;
  try {
    for (const cv of options.cvs) {
      for (let seed = 0; seed < options.flatSeeds; seed++) {
        const random = createSeededRandom(options.seed * 15_485_863 + Math.round(cv * 1000) * 101 + seed);
        const slug = `flat-${cv}-${seed}`;
        const tally = new Tally();
        let tooLittle = 0;
        for (let run = 0; run < options.flatRuns; run++) {
          const document = syntheticDocument(random, { levels: LEVELS_MS, requests: 5000, cv }, hourAt(run), null);
          const answer = await upload(database.prisma, slug, uploadOfDocument(document), { branch: "main" });
          await runDetectionNow(database);
          if (answer.inconclusive?.kind === "too-little-history") tooLittle++;
          else tally.add(answer.outcome, answer.inconclusive?.kind ?? null);
        }
        const regressions = await openedRegressions(database.prisma, slug);
        opened += regressions.length;
        fails += tally.fail;
        judged += tally.total;
        rows.push([
          `${cv * 100}%`,
          String(seed),
          String(options.flatRuns),
          String(tooLittle),
          `${tally.fail} (${percent(tally.rate("fail"))})`,
          `${tally.inconclusive} (${tally.kindsText()})`,
          regressions.length === 0 ? "0" : `${regressions.length}: ${regressions.map((regression) => `${regression.endpoint?.name ?? "all"} ${regression.metric} ${regression.deltaPct.toFixed(1)}%`).join("; ")}`,
        ]);
      }
    }
  } finally {
    await database.close();
  }
  return {
    title: "Flat series (upload path)",
    method:
      `Upload path with detection after every upload: ${options.flatRuns} unchanged runs per series of the synthetic model (5 endpoints, 5,000 requests), ` +
      `${options.flatSeeds} series per CV (${options.cvs.map((cv) => `${cv * 100}%`).join(", ")}).`,
    body: table(["CV", "seed", "uploads", "too little history", "fail", "inconclusive", "regressions opened"], rows),
    targets: [
      { target: "A flat series opens no regression", figure: `${opened} opened over ${rows.length} series of ${options.flatRuns} runs`, met: opened === 0 },
      { target: "False alarms ≤ 2% per unchanged upload (flat series, upload path)", figure: `${fails} fail of ${judged} judged (${percent(judged ? fails / judged : null)})`, met: judged > 0 && fails / judged <= 0.02 },
    ],
  };
}

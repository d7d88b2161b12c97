/**
 * Proves the pure path equals the upload path: the same documents go up through `uploadRun` on a fresh
 * embedded database and through the pure path (parser + `decideFromRuns`, with the baseline chooseBaseline
 * would pick), and the two outcomes (and inconclusive kinds) are compared upload by upload.
 */
import { chooseBaselineWindow } from "../../server/domain/gate/baseline-window";
import { createSeededRandom } from "../../server/domain/stats/random";
import { openMigratedDatabase } from "../../server/testing/databases";
import type { LoadedRun } from "../../server/services/runs";
import { casesFor } from "./synthetic";
import type { EvaluationOptions, PartReport, PureAnswer, Slowdown } from "./shared";
import { hourAt, judgePure, LEVELS_MS, loadedOfDocument, syntheticDocument, table, upload, uploadOfDocument } from "./shared";

const MAIN_RUNS = 12;
const CV = 0.05;
const POOLED: Slowdown = { pct: 10, endpoints: "one" };

export async function runCrosscheck(options: EvaluationOptions): Promise<PartReport> {
  const database = await openMigratedDatabase({ kind: "memory" });
  const disagreements: string[][] = [];
  let agreed = 0;
  let total = 0;
  try {
    for (let trial = 0; trial < options.crosscheckTrials; trial++) {
      const random = createSeededRandom(options.seed * 7_919 + trial);
      const model = { levels: LEVELS_MS, requests: 5000, cv: CV };
      const slug = `crosscheck-${trial}`;
      let hour = 0;
      const compare = async (what: string, metadata: Record<string, unknown>, slowdown: Slowdown | null, pure: (run: LoadedRun) => PureAnswer) => {
        const document = syntheticDocument(random, model, hourAt(hour++), slowdown);
        const answer = await upload(database.prisma, slug, uploadOfDocument(document), metadata);
        const run = loadedOfDocument(document, answer.id, metadata);
        const expected = pure(run);
        total++;
        const uploadKind = answer.inconclusive?.kind ?? null;
        if (expected.outcome === answer.outcome && expected.kind === uploadKind) agreed++;
        else disagreements.push([`trial ${trial}`, what, `${answer.outcome}${uploadKind ? ` (${uploadKind})` : ""}`, `${expected.outcome}${expected.kind ? ` (${expected.kind})` : ""}`, answer.reasons.join("; ").slice(0, 160)]);
        return { run, expected };
      };
      // Main: each run against the earlier ones as the series window picks them (pure, chooseBaselineWindow), newest first.
      const main: { run: LoadedRun; regressed: boolean }[] = [];
      for (let index = 0; index < MAIN_RUNS; index++) {
        const { run, expected } = await compare(`main run ${index + 1}`, { branch: "main" }, null, (head) => {
          const newestFirst = [...main].reverse();
          const window = chooseBaselineWindow(
            newestFirst.map((earlier) => ({ id: earlier.run.stored.id, startedAt: earlier.run.stored.startedAt, uploadedAt: earlier.run.stored.uploadedAt, regressed: earlier.regressed })),
            [],
            "series",
          );
          const byId = new Map(newestFirst.map((earlier) => [earlier.run.stored.id, earlier.run]));
          return judgePure(window.runIds.map((id) => byId.get(id)!), [head]);
        });
        main.push({ run, regressed: expected.regressed });
      }
      // Pull requests: against all of main's runs before them (failed ones included), newest first.
      const base = main.map(({ run }) => run).reverse().slice(0, 30);
      for (const { key, slowdown } of casesFor(CV)) {
        await compare(`PR ${key}`, { branch: `pr-${key}` }, slowdown, (head) => judgePure(base, [head]));
      }
      // Three uploads of one commit: each judged with the earlier rounds of its commit.
      const rounds: LoadedRun[] = [];
      for (let round = 1; round <= 3; round++) {
        const metadata = { branch: "pr-pooled", commit: "c0ffee1", round };
        const { run } = await compare(`PR pooled round ${round}`, metadata, POOLED, (head) => judgePure(base, [head, ...[...rounds].reverse()]));
        rounds.push(run);
      }
    }
  } finally {
    await database.close();
  }
  const body =
    `Agreed on ${agreed} of ${total} uploads (outcome and inconclusive kind).` +
    (disagreements.length > 0 ? `\n\n${table(["trial", "upload", "upload path", "pure path", "upload's reasons"], disagreements)}` : "");
  return {
    title: "Crosscheck: pure path against the upload path",
    method:
      `Upload path (\`uploadRun\` on a fresh embedded database) and pure path on the same documents: ${options.crosscheckTrials} trials at CV ${CV * 100}%, ` +
      `each ${MAIN_RUNS} unchanged runs on main, then one PR upload per synthetic case (${casesFor(CV).length}) and three uploads of one commit ` +
      `(+${POOLED.pct}% on one endpoint) on a PR branch. Detection jobs are not run here (with ${MAIN_RUNS} flat runs they would open nothing to change a baseline).`,
    body,
    targets: [{ target: "Pure path agrees with the upload path on every crosscheck upload", figure: `${agreed} of ${total}`, met: agreed === total }],
  };
}

/**
 * Real rounds through `uploadRun`: each format's bundled fixture rounds (server/domain/parsers/fixtures,
 * the same files as ../shared/fixtures; read, never changed). Per format, in a project of its own: the
 * baseline rounds in order under one label on main (detection after each; a `fail` is a false alarm),
 * then each ManagedAsync round (the same service with a real slowdown) on a PR branch of its own (a
 * `pass` is a miss), then the ManagedAsync rounds as three uploads of one commit (judged together).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { openMigratedDatabase } from "../../server/testing/databases";
import type { ReceivedUpload } from "../../server/services/ingest";
import { uploadOfFiles } from "../../server/services/ingest";
import type { Answer, PartReport } from "./shared";
import { hourAt, runDetectionNow, table, Tally, upload } from "./shared";

const FIXTURES = path.resolve(import.meta.dirname, "../../server/domain/parsers/fixtures");
const GHZ = ["GetListing.json", "ListListings.json", "SearchListings.json", "CheckStockAvailability.json", "GetAllCategories.json"];

interface RealFormat {
  name: string;
  folder: string;
  files: string[];
  rounds: number;
}

const FORMATS: RealFormat[] = [
  { name: "k6 summary export", folder: "k6", files: ["summary.json"], rounds: 3 },
  { name: "k6 handleSummary", folder: "k6", files: ["handle-summary.json"], rounds: 3 },
  { name: "Locust CSV set", folder: "locust", files: ["locust_stats.csv", "locust_stats_history.csv", "locust_failures.csv", "locust_exceptions.csv"], rounds: 3 },
  { name: "Locust JSON", folder: "locust", files: ["locust.json"], rounds: 3 },
  { name: "ghz JSON (five reports)", folder: "ghz", files: GHZ, rounds: 3 },
  { name: "vegeta JSON", folder: "vegeta", files: ["report.json"], rounds: 1 },
  { name: "hey text", folder: "hey", files: ["hey.txt"], rounds: 1 },
  { name: "wrk text", folder: "wrk", files: ["wrk.txt"], rounds: 1 },
  { name: "autocannon JSON", folder: "autocannon", files: ["autocannon.json"], rounds: 1 },
  { name: "artillery JSON", folder: "artillery", files: ["report.json"], rounds: 1 },
];

/** Extra formats kept for one baseline run only (no ManagedAsync counterpart, no second round). */
const BASELINE_ONLY: { name: string; folder: string; files: string[] }[] = [
  { name: "k6 new machine-readable summary", folder: "k6/baseline/new-machine-readable-summary", files: ["summary.json"] },
  { name: "Locust HTML report", folder: "locust/baseline/round1", files: ["report.html"] },
  { name: "ghz CSV (five reports)", folder: "ghz/baseline/round1-csv", files: [] },
  { name: "ghz pretty JSON (five reports)", folder: "ghz/baseline/round1-pretty", files: [] },
  { name: "hey CSV", folder: "hey/baseline/csv", files: ["hey.csv"] },
  { name: "vegeta text", folder: "vegeta/baseline/round1", files: ["report.txt"] },
  { name: "vegeta histogram", folder: "vegeta/baseline/round1", files: ["report-hist.txt"] },
];

function readUpload(folder: string, files: readonly string[]): ReceivedUpload {
  const names = files.length > 0 ? files : readdirSorted(folder);
  return uploadOfFiles(
    names.map((name) => ({
      name,
      contentType: name.endsWith(".json") ? "application/json" : name.endsWith(".html") ? "text/html" : name.endsWith(".csv") ? "text/csv" : "text/plain",
      bytes: readFileSync(path.join(FIXTURES, folder, name)),
    })),
  );
}

/** Every file of a folder (a set whose file list is the folder), in name order. */
const readdirSorted = (folder: string) => readdirSync(path.join(FIXTURES, folder)).sort();

const describe = (answer: Answer) => `${answer.outcome}${answer.inconclusive ? ` (${answer.inconclusive.kind})` : ""}`;

export async function runReal(): Promise<PartReport> {
  const database = await openMigratedDatabase({ kind: "memory" });
  const rows: string[][] = [];
  const details: string[] = [];
  let baselineFails = 0;
  let baselineUploads = 0;
  try {
    for (const [position, format] of FORMATS.entries()) {
      const slug = `real-${position}`;
      let hour = 0;
      const unchanged = new Tally();
      const slowed = new Tally();
      const send = (variant: string, round: number, metadata: Record<string, unknown>) =>
        upload(database.prisma, slug, readUpload(`${format.folder}/${variant}/round${round}`, format.files), {
          label: "nightly",
          round,
          started_at: hourAt(hour++).toISOString(),
          ...metadata,
        });
      const seen: string[] = [];
      for (let round = 1; round <= format.rounds; round++) {
        const answer = await send("baseline", round, { branch: "main" });
        await runDetectionNow(database);
        unchanged.add(answer.outcome, answer.inconclusive?.kind ?? null);
        seen.push(`baseline ${round}: ${describe(answer)}`);
      }
      for (let round = 1; round <= format.rounds; round++) {
        const answer = await send("managedasync", round, { branch: `pr-managedasync-${round}` });
        slowed.add(answer.outcome, answer.inconclusive?.kind ?? null);
        const changes = answer.comparison.regressions.map((regression) => `${regression.endpoint ?? "all"} ${regression.metric} ${regression.deltaPct?.toFixed(0)}%`);
        seen.push(`managedasync ${round}: ${describe(answer)}${changes.length > 0 ? ` [${changes.slice(0, 5).join(", ")}]` : ""}`);
      }
      let pooled = "– (one round per variant)";
      if (format.rounds > 1) {
        let last: Answer | null = null;
        for (let round = 1; round <= format.rounds; round++) last = await send("managedasync", round, { branch: "pr-managedasync-pooled", commit: "5ca1ab1e" });
        pooled = `${describe(last!)} (${last!.comparison.headRuns.length} rounds vs ${last!.comparison.baseline.runs.length})`;
      }
      baselineFails += unchanged.fail;
      baselineUploads += unchanged.total;
      rows.push([
        format.name,
        String(unchanged.total + slowed.total),
        `${unchanged.pass}/${unchanged.fail}/${unchanged.inconclusive}`,
        unchanged.kindsText(),
        `${slowed.pass}/${slowed.fail}/${slowed.inconclusive}`,
        slowed.kindsText(),
        pooled,
      ]);
      details.push(`- ${format.name}: ${seen.join("; ")}`);
    }
    const extras: string[][] = [];
    for (const [position, extra] of BASELINE_ONLY.entries()) {
      try {
        const answer = await upload(database.prisma, `real-extra-${position}`, readUpload(extra.folder, extra.files), {
          label: "nightly",
          branch: "main",
          started_at: hourAt(0).toISOString(),
        });
        await runDetectionNow(database);
        baselineUploads++;
        if (answer.outcome === "fail") baselineFails++;
        extras.push([extra.name, `${answer.format}`, describe(answer)]);
      } catch (error) {
        extras.push([extra.name, "upload refused", error instanceof Error ? error.message.slice(0, 120) : String(error)]);
      }
    }
    const body = [
      table(
        ["format", "uploads", "baseline on main: pass/fail/inconclusive", "baseline inconclusive kinds", "ManagedAsync PR: pass/fail/inconclusive", "ManagedAsync inconclusive kinds", "ManagedAsync rounds pooled (one commit)"],
        rows,
      ),
      "Formats with one round per variant are 1 vs 1: the first baseline upload has no history, and the ManagedAsync upload is judged against that single run; inconclusive is the expected answer there, not a miss of the gate.",
      `Upload by upload:\n\n${details.join("\n")}`,
      `Extra formats bundled for one baseline run only (a first upload: nothing to judge against, so inconclusive is the only possible answer):\n\n${table(["format", "detected as", "outcome"], extras)}`,
      "Not run: k6 NDJSON (one short baseline sample only, `k6/baseline/short-ndjson`), the micro-benchmark fixtures of ../shared/fixtures/micro (not a load-test format the upload takes), and rounds 4–5 (held back by the fixtures README).",
    ].join("\n\n");
    return {
      title: "Real fixture rounds (upload path)",
      method: "Upload path (`uploadRun` on a fresh embedded database, detection job run after each upload on main); one project per format; fail_on = regression.",
      body,
      targets: [
        {
          target: "0 false alarms on every real unchanged round of every format",
          figure: `${baselineFails} fail of ${baselineUploads} unchanged uploads`,
          met: baselineFails === 0,
        },
      ],
    };
  } finally {
    await database.close();
  }
}

import { readFileSync } from "node:fs";
import path from "node:path";
import type { ReceivedUpload } from "../../server/services/ingest";
import { uploadOfFiles } from "../../server/services/ingest";

/**
 * The real tool outputs kept beside the parser tests, turned into the `ReceivedUpload` the REST API
 * would have built from the same bytes, so the demo goes through exactly the upload path. Numbers are
 * never touched; the one thing left out is what describes the fixture's recording rather than the demo
 * run (`withoutRecordingTags`).
 */
const FIXTURES_DIR = path.resolve(import.meta.dirname, "../../server/domain/parsers/fixtures");

export type FixtureKind = "k6-summary" | "k6-handle-summary" | "locust-csv" | "ghz" | "go-bench";
/** "slow-joinints": the go package with JoinInts rewritten slower (go-bench/README.md). */
export type FixtureVariant = "baseline" | "managedasync" | "slow-joinints";
/** Only rounds 1–3 are bundled (rounds 4–5 are held back for unseen-file parser checks). */
export const FIXTURE_ROUNDS = 3;
/**
 * The demo's go test -bench history: real runs made for it (go-bench/source/run.sh), 9 of the package as
 * it is and 7 with JoinInts slower, read as `go-bench/runs/<variant>-<round>.txt`.
 */
export const GO_BENCH_ROUNDS: Readonly<Partial<Record<FixtureVariant, number>>> = { baseline: 9, "slow-joinints": 7 };
const GO_BENCH_DIR = path.resolve(import.meta.dirname, "go-bench/runs");

export interface FixtureRef {
  kind: FixtureKind;
  variant: FixtureVariant;
  /** 1..FIXTURE_ROUNDS */
  round: number;
}

const FIXTURE_FILES: Record<
  Exclude<FixtureKind, "go-bench">,
  { folder: string; files: readonly string[]; contentType: string; prepare?: (bytes: Buffer) => Buffer }
> = {
  "k6-summary": { folder: "k6", files: ["summary.json"], contentType: "application/json" },
  "k6-handle-summary": { folder: "k6", files: ["handle-summary.json"], contentType: "application/json" },
  // The CSV set as `curl -F stats=@… -F history=@… -F failures=@…` would send it (exceptions too).
  "locust-csv": {
    folder: "locust",
    files: ["locust_stats.csv", "locust_stats_history.csv", "locust_failures.csv", "locust_exceptions.csv"],
    contentType: "text/csv",
  },
  // One ghz report per gRPC method, uploaded together as one run.
  ghz: {
    folder: "ghz",
    files: [
      "GetListing.json",
      "ListListings.json",
      "SearchListings.json",
      "CheckStockAvailability.json",
      "GetAllCategories.json",
    ],
    contentType: "application/json",
    prepare: withoutRecordingTags,
  },
};

/**
 * A ghz report without its `tags`. The fixtures were recorded with `--tags` naming the session's variant
 * and round (`{"variant":"managedasync","round":"2"}`), which Benchtrack keeps as run attributes: the
 * demo's main nightlies said `variant=managedasync, round=2`, a nightly being neither. A demo run's
 * label, round and branch are the plan's (plan.ts); the report's numbers stay the tool's own.
 */
function withoutRecordingTags(bytes: Buffer): Buffer {
  const { tags: _recording, ...report } = JSON.parse(bytes.toString("utf8")) as Record<string, unknown>;
  return Buffer.from(JSON.stringify(report));
}

// A fixture set is read and gzipped once per process: the demo reuses each one dozens of times.
const cache = new Map<string, ReceivedUpload>();

export function readFixtureUpload(ref: FixtureRef): ReceivedUpload {
  const rounds = ref.kind === "go-bench" ? (GO_BENCH_ROUNDS[ref.variant] ?? 0) : FIXTURE_ROUNDS;
  if (!Number.isInteger(ref.round) || ref.round < 1 || ref.round > rounds) {
    throw new Error(`No bundled ${ref.kind} ${ref.variant} round ${ref.round} (rounds 1–${rounds} exist)`);
  }
  const key = `${ref.kind}/${ref.variant}/${ref.round}`;
  const cached = cache.get(key);
  if (cached) return cached;
  if (ref.kind === "go-bench") {
    // `go test -bench … | curl --data-binary @-`: the text as one body.
    const upload = uploadOfFiles([{ name: null, contentType: "text/plain", bytes: readFileSync(path.join(GO_BENCH_DIR, `${ref.variant}-${ref.round}.txt`)) }]);
    cache.set(key, upload);
    return upload;
  }

  const { folder, files: names, contentType, prepare = (bytes: Buffer) => bytes } = FIXTURE_FILES[ref.kind];
  const upload = uploadOfFiles(
    names.map((name) => ({
      name,
      contentType,
      bytes: prepare(readFileSync(path.join(FIXTURES_DIR, folder, ref.variant, `round${ref.round}`, name))),
    })),
  );
  cache.set(key, upload);
  return upload;
}

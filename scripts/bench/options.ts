import { parseArgs } from "node:util";
import { PAGE_BENCH_DEFAULTS } from "./pages";

/**
 * The bench's command line (scripts/bench.ts, whose header says what each flag does): its flags parsed
 * (an unknown one is refused) and its numbers checked, each a positive whole number or the bench exits
 * with code 2 before anything starts.
 */

/** Each part (ingest, pages) may take this long before the whole benchmark is stopped and cleaned up. */
const PART_DEADLINE_MS = 10 * 60_000;

export function readBenchArgs() {
  const { values: args } = parseArgs({
    options: {
      "ndjson-mb": { type: "string", default: "100" },
      uploads: { type: "string", default: "400" },
      concurrency: { type: "string", default: "8" },
      postgres: { type: "boolean", default: false },
      embedded: { type: "boolean", default: false },
      pages: { type: "boolean", default: false },
      minutes: { type: "string", default: String(PART_DEADLINE_MS / 60_000) },
      scale: { type: "boolean", default: false },
      isolation: { type: "boolean", default: false },
      "read-replicas": { type: "boolean", default: false },
      "baseline-ref": { type: "string" },
      wide: { type: "boolean", default: false },
      "page-runs": { type: "string", default: String(PAGE_BENCH_DEFAULTS.runs) },
      "page-samples": { type: "string", default: String(PAGE_BENCH_DEFAULTS.samples) },
      "page-years": { type: "string", default: "2" },
      "page-database-url": { type: "string" },
      "page-port": { type: "string" },
    },
  });
  /** --scale: the scale part only (PostgreSQL); --read-replicas: only its read-replica step. */
  const scaleOnly = args.scale || args["read-replicas"] || args.isolation || args.wide;
  const options = {
    ndjsonMb: positiveNumber("ndjson-mb", args["ndjson-mb"]),
    uploads: positiveNumber("uploads", args.uploads),
    concurrency: positiveNumber("concurrency", args.concurrency),
  };
  const pageOptions = {
    runs: positiveNumber("page-runs", args["page-runs"]),
    endpoints: PAGE_BENCH_DEFAULTS.endpoints,
    samples: positiveNumber("page-samples", args["page-samples"]),
    years: positiveNumber("page-years", args["page-years"]),
  };
  return { args, scaleOnly, options, pageOptions };
}

export function positiveNumber(name: string, value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number <= 0) {
    console.error(`--${name} must be a positive whole number, got "${value}"`);
    process.exit(2);
  }
  return number;
}

import { describe, expect, it } from "vitest";
import { readFixture } from "@/server/domain/parsers/fixtures/read-fixture";
import { createSeededRandom } from "@/server/domain/stats/random";
import type { SeededRandom } from "@/server/domain/stats/random";
import { uniqueSlug } from "@/server/testing/databases";
import { call, setUpRouteTestDatabase } from "@/server/testing/rest-client";
import { POST as uploadRun } from "./route";

// Fuzzing the upload route (issue "Access control … hostile input", tests): seeded mutations of real
// tool outputs and of the Benchtrack format — truncations, flipped and injected characters (NUL, lone
// surrogates, quotes), numbers beyond every range, strings where numbers go, deep nesting, hostile
// query metadata — each POSTed through the real route to the real database. No answer may be a 5xx.
// Each answer's time is measured and printed (the slowest and the 99th percentile), never asserted.
// Same seed, same inputs: FUZZ_SEED and FUZZ_INPUTS change them.
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const INPUTS = Number(process.env.FUZZ_INPUTS ?? 1500);

setUpRouteTestDatabase();

const SEEDS = [
  readFixture("k6/baseline/round1/summary.json"),
  readFixture("k6/baseline/round1/handle-summary.json"),
  readFixture("ghz/baseline/round1/GetListing.json"),
  readFixture("locust/baseline/round1/locust_stats.csv"),
  readFixture("locust/baseline/round1/locust.json"),
  readFixture("locust/baseline/round1/report.html"),
  readFixture("locust/baseline/csv-full-history/locust_stats_history.csv"),
  readFixture("k6/baseline/groups-submetrics/handle-summary.json"),
  readFixture("k6/baseline/new-machine-readable-summary/handle-summary.json"),
  readFixture("ghz/baseline/round1-csv/CheckStockAvailability.csv"),
  readFixture("vegeta/baseline/round1/report.json"),
  readFixture("vegeta/baseline/round1/report.txt"),
  readFixture("vegeta/baseline/round1/report-hist.txt"),
  readFixture("hey/baseline/round1/hey.txt"),
  readFixture("hey/baseline/csv/hey.csv"),
  readFixture("wrk/managedasync/round1/wrk.txt"),
  readFixture("autocannon/baseline/round1/autocannon.json"),
  readFixture("artillery/baseline/round1/report.json"),
  readFixture("artillery/baseline/round1/artillery-console.txt"),
  // The real microbenchmark outputs: go test -bench (text and -json), hyperfine, pytest-benchmark,
  // Google Benchmark, vitest bench and benchmark.js.
  ...[
    "go/baseline/gobench.txt",
    "go/baseline/gobench.json",
    "hyperfine/baseline/hyperfine.json",
    "hyperfine/baseline/hyperfine.csv",
    "hyperfine/baseline/hyperfine.txt",
    "pytest-benchmark/baseline/pytest-benchmark.json",
    "pytest-benchmark/baseline/pytest-benchmark.txt",
    "google-benchmark/baseline/gbench.json",
    "google-benchmark/baseline/gbench.txt",
    "vitest/baseline/vitest-bench.json",
    "vitest/baseline/vitest-bench.txt",
    "benchmarkjs/baseline/benchmarkjs.txt",
  ].map((file) => readFixture(`micro/${file}`)),
  // JMH, Criterion.rs and BenchmarkDotNet in their documented layouts (fixtures/documented/README.md).
  readFixture("documented/jmh/jmh-result.json"),
  readFixture("documented/criterion/fib/iterative/20/new/estimates.json"),
  readFixture("documented/criterion/fib/iterative/20/new/sample.json"),
  readFixture("documented/benchmarkdotnet/Acme.Benchmarks.ParseBenchmarks-report-full.json"),
  // JMeter JTL in its documented CSV and XML layouts (no real JMeter output exists in the fixtures).
  [
    "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect",
    '1795339200000,12,GetListing,200,OK,Group 1-1,text,true,,512,120,2,2,http://127.0.0.1:18080/api/listings/42,11,0,1',
    '1795339200015,31,Search,500,Internal Server Error,Group 1-2,text,false,"Test failed: code 500",80,120,2,2,http://127.0.0.1:18080/api/search,30,0,1',
  ].join("\n"),
  [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<testResults version="1.2">',
    '<httpSample t="12" it="0" lt="11" ct="1" ts="1795339200000" s="true" lb="GetListing" rc="200" rm="OK" tn="Group 1-1" dt="text" by="512" sby="120" ng="2" na="2"/>',
    '<httpSample t="31" it="0" lt="30" ct="1" ts="1795339200015" s="false" lb="Search" rc="500" rm="Internal Server Error" tn="Group 1-2" dt="text" by="80" sby="120" ng="2" na="2"/>',
    "</testResults>",
  ].join("\n"),
  JSON.stringify({
    schema: "benchtrack/v1",
    label: "nightly",
    round: 1,
    environment: { host: { cpus: 4 }, attributes: { db: "pg" }, config: { vus: 10 } },
    endpoints: [{ name: "GetListing", protocol: "grpc", requests: 100, failures: 1, latency: { unit: "ms", p50: 1, p95: 2 } }],
    checks: [{ name: "ok", passes: 1, fails: 0 }],
  }),
];

const HOSTILE_NUMBERS = ["1e400", "-1", "2147483648", "99999999999999999999", "-0", "1e-400", "0.5", "1e12", "NaN", "Infinity"];
const HOSTILE_TEXT = ["\\u0000", "\\ud800", "\\udfff", "x".repeat(2000), "<script>alert(1)</script>", "\\\\", "\u0000", "é", "\uFEFF"];
const HOSTILE_CHARS = ["\u0000", '"', "{", "}", "[", "]", ",", ":", "\n", "\r", "\\", "\ud800", "9", "-", "."];

function pick<T>(random: SeededRandom, items: readonly T[]): T {
  return items[random.integer(items.length)]!;
}

/** One seeded mutation of a text. */
function mutate(random: SeededRandom, text: string): string {
  const at = random.integer(Math.max(1, text.length));
  switch (random.integer(9)) {
    case 0:
      return text.slice(0, at);
    case 1:
      return `${text.slice(0, at)}${pick(random, HOSTILE_CHARS)}${text.slice(at + 1)}`;
    case 2: {
      const numbers = [...text.matchAll(/-?\d+(\.\d+)?(e[+-]?\d+)?/gi)];
      if (numbers.length === 0) return text;
      const number = pick(random, numbers);
      return `${text.slice(0, number.index)}${pick(random, HOSTILE_NUMBERS)}${text.slice(number.index + number[0].length)}`;
    }
    case 3: {
      const strings = [...text.matchAll(/"([^"\\]{1,60})"/g)];
      if (strings.length === 0) return text;
      const string = pick(random, strings);
      return `${text.slice(0, string.index)}"${pick(random, HOSTILE_TEXT)}"${text.slice(string.index + string[0].length)}`;
    }
    case 4:
      return `${text.slice(0, at)}${text.slice(at, at + random.integer(400))}${text.slice(at)}`;
    case 5:
      return `${text.slice(0, at)}${text.slice(at + random.integer(400))}`;
    case 6:
      return `${"[".repeat(2000)}${text}${"]".repeat(2000)}`;
    case 7: {
      // A number where a string goes, or an object where a number goes.
      const values = [...text.matchAll(/:\s*(-?\d+(\.\d+)?|"[^"\\]{0,40}")/g)];
      if (values.length === 0) return text;
      const value = pick(random, values);
      const replacement = pick(random, ['{"a":1}', "[]", "null", "true", '"7"', "-5"]);
      return `${text.slice(0, value.index)}: ${replacement}${text.slice(value.index + value[0].length)}`;
    }
    default:
      return text.replace(/\n/g, () => (random.uniform() < 0.05 ? "\n\u0000" : "\n"));
  }
}

function hostileQuery(random: SeededRandom): Record<string, string> {
  if (random.uniform() < 0.7) return {};
  return pick<Record<string, string>>(random, [
    { round: "2147483648" },
    { round: "-3" },
    { pr: "99999999999" },
    { label: "a\u0000b" },
    { started_at: "not-a-date" },
    { branch: "x".repeat(5000) },
    { "attr.key": "\u0000" },
    { format: "k6" },
    { format: "nonsense" },
    { fail_on: "everything" },
  ]);
}

describe("the upload route under fuzzed input", () => {
  it(`answers ${INPUTS} mutated uploads with no 5xx`, async () => {
    const random = createSeededRandom(SEED);
    const slug = uniqueSlug("fuzz");
    const statuses: Record<number, number> = {};
    const times: number[] = [];
    const fivexx: string[] = [];
    for (let index = 0; index < INPUTS; index++) {
      let body = pick(random, SEEDS);
      for (let mutations = 1 + random.integer(3); mutations > 0; mutations--) body = mutate(random, body);
      const query = hostileQuery(random);
      const started = performance.now();
      const response = await call(uploadRun, `/api/v1/projects/${slug}/runs`, { project: slug }, { method: "POST", body, query });
      times.push(performance.now() - started);
      statuses[response.status] = (statuses[response.status] ?? 0) + 1;
      const text = await response.text();
      if (response.status >= 500) fivexx.push(`#${index} ${response.status} ${text.slice(0, 200)}`);
    }
    times.sort((a, b) => a - b);
    const p99 = times[Math.floor(times.length * 0.99)] ?? 0;
    console.info(
      `fuzz (seed ${SEED}): ${INPUTS} uploads; answers by status ${JSON.stringify(statuses)}; time p50 ${times[Math.floor(times.length / 2)]?.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${times.at(-1)?.toFixed(1)} ms`,
    );
    expect(fivexx).toEqual([]);
  }, 600_000);
});

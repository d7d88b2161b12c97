import { describe, expect, it } from "vitest";
import { BENCHMARK_PROTOCOL } from "../../run";
import { detectedFormats } from "../fixtures/detected-formats";
import { allFixtureFiles, expectedFormatOf } from "../fixtures/fixture-uploads";
import { errorOf } from "../fixtures/input-error-of";
import { readFixture, readFixtureJson } from "../fixtures/read-fixture";
import { parseUpload } from "..";
import { parseVitestBench, parseVitestBenchText } from "./vitest-bench";

const FOLDER = "micro/vitest/baseline";
const JSON_PATH = `${FOLDER}/vitest-bench.json`;
const TEXT_PATH = `${FOLDER}/vitest-bench.txt`;

interface JsonBenchmark {
  name: string;
  hz: number;
  mean: number;
  min: number;
  max: number;
  sd: number;
  median: number;
  p75: number;
  p99: number;
  p995: number;
  p999: number;
  sampleCount: number;
  samples: number[];
}
interface Report {
  files: { filepath: string; groups: { fullName: string; benchmarks: JsonBenchmark[] }[] }[];
}

const report = () => readFixtureJson(JSON_PATH) as Report;
/** The file's benchmarks in order, with the name Benchtrack gives each (`file > group > bench`). */
const fileBenchmarks = (document: Report = report()) =>
  document.files.flatMap((file) =>
    file.groups.flatMap((group) =>
      group.benchmarks.map((benchmark) => ({ ...benchmark, fullName: `${group.fullName} > ${benchmark.name}` })),
    ),
  );

describe("vitest bench --outputJson", () => {
  const run = parseVitestBench(report());
  const expected = fileBenchmarks();

  it("is a benchmark run with no testbed or version (the file states neither)", () => {
    expect(run.format).toBe("vitest-bench");
    expect(run.tool).toBe("vitest");
    expect([run.toolVersion, run.environment.testbed]).toEqual([null, null]);
    expect(run.environment.config).toEqual({});
    expect(run.endpoints.every((endpoint) => endpoint.protocol === BENCHMARK_PROTOCOL)).toBe(true);
  });

  it("names each benchmark by its group as vitest names it, file first, then its own name", () => {
    expect(run.endpoints.map((endpoint) => endpoint.name)).toEqual(expected.map((benchmark) => benchmark.fullName));
    expect(run.endpoints[0]?.name).toBe("micro.bench.js > json > stringify 200 records");
    expect(run.endpoints.every((endpoint) => endpoint.fullName === null)).toBe(true);
  });

  it("keeps the summary as written, samples being empty: mean, sd, min, max, five percentiles, the sample count, hz", () => {
    expect(expected.every((benchmark) => benchmark.samples.length === 0)).toBe(true);
    run.endpoints.forEach((endpoint, index) => {
      const benchmark = expected[index]!;
      expect(endpoint.latency).toEqual({
        meanMs: benchmark.mean,
        stdDevMs: benchmark.sd,
        minMs: benchmark.min,
        maxMs: benchmark.max,
        percentiles: {
          "50": benchmark.median,
          "75": benchmark.p75,
          "99": benchmark.p99,
          "99.5": benchmark.p995,
          "99.9": benchmark.p999,
        },
      });
      expect(endpoint.requests).toBe(benchmark.sampleCount);
      expect(endpoint.throughput).toBe(benchmark.hz);
      // hz is operations per second: 1000 / mean time per operation in ms, as tinybench computes it.
      expect(benchmark.hz).toBeCloseTo(1000 / benchmark.mean, 6);
      expect([endpoint.failures, endpoint.histogram]).toEqual([null, null]);
      expect(endpoint.metrics).toEqual({});
    });
  });

  it("uses a filled samples list (another vitest version) as the samples", () => {
    const document = report();
    const first = document.files[0]!.groups[0]!.benchmarks[0]!;
    first.samples = [0.07, 0.065, 0.066, 0.08, 0.064];
    const endpoint = parseVitestBench(document).endpoints[0]!;
    expect(endpoint.requests).toBe(5);
    expect(endpoint.latency.meanMs).toBeCloseTo(0.069, 12);
    expect(endpoint.latency.percentiles["50"]).toBe(0.066);
    expect(endpoint.histogram?.reduce((sum, bucket) => sum + bucket.count, 0)).toBe(5);
    expect(endpoint.throughput).toBe(first.hz);
  });

  it("keeps two files' groups of the same name apart", () => {
    const document = report();
    const [file] = document.files;
    document.files.push({
      filepath: "/home/runner/work/bench/js/other.bench.js",
      groups: [{ ...file!.groups[0]!, fullName: "other.bench.js > json" }],
    });
    const names = parseVitestBench(document).endpoints.map((endpoint) => endpoint.name);
    expect(names).toContain("micro.bench.js > json > stringify 200 records");
    expect(names).toContain("other.bench.js > json > stringify 200 records");
  });
});

describe("vitest bench --outputJson: bad files", () => {
  const text = readFixture(JSON_PATH);
  const upload = (body: string) => parseUpload({ files: [{ name: "vitest-bench.json", text: body }] });

  it("refuses a truncated file with the line and column where it stops", () => {
    const error = errorOf(() => upload(text.slice(0, 2000)));
    expect(error.code).toBe("malformed");
    expect(error.details[0]?.path).toMatch(/^vitest-bench\.json: line \d+, column \d+$/);
  });

  it("names the JSON path of a string where a number belongs", () => {
    const document = report() as unknown as { files: { groups: { benchmarks: Record<string, unknown>[] }[] }[] };
    document.files[0]!.groups[3]!.benchmarks[1]!.mean = "fast";
    expect(errorOf(() => upload(JSON.stringify(document))).details[0]?.path).toBe(
      "files[0].groups[3].benchmarks[1].mean",
    );
  });

  it("refuses a report with no benchmark, and one benchmark twice in a group", () => {
    expect(
      errorOf(() => upload(JSON.stringify({ files: [{ filepath: "/a.bench.js", groups: [] }] }))).message,
    ).toContain("no benchmark results");
    const document = report();
    const json = document.files[0]!.groups[0]!;
    json.benchmarks[1]!.name = json.benchmarks[0]!.name;
    expect(errorOf(() => upload(JSON.stringify(document))).message).toContain(
      '"micro.bench.js > json > stringify 200 records" appears twice',
    );
  });
});

/** The test's own reading of the console tables: the group above each, then its rows' cells. */
function consoleRows(text: string) {
  const rows: { name: string; cells: number[] }[] = [];
  let group = "";
  for (const line of text.split("\n")) {
    const header = /^ ✓ (.+) \d+ms$/.exec(line);
    if (header) group = header[1]!;
    const row =
      /^ {3}· (.+?) +([\d,.]+) +([\d.]+) +([\d.]+) +([\d.]+) +([\d.]+) +([\d.]+) +([\d.]+) +([\d.]+) +±([\d.]+)% +(\d+)$/.exec(
        line,
      );
    if (row)
      rows.push({ name: `${group} > ${row[1]}`, cells: row.slice(2).map((cell) => Number(cell.replaceAll(",", ""))) });
  }
  return rows;
}

describe("vitest bench console output", () => {
  const text = readFixture(TEXT_PATH);
  const run = parseVitestBenchText(text, "vitest-bench.txt");
  const rows = consoleRows(text);
  const json = fileBenchmarks();

  it("gives the JSON report's names, in its order, and vitest's version from the RUN line", () => {
    expect(run.format).toBe("vitest-bench-text");
    expect(rows.length).toBe(json.length);
    expect(run.endpoints.map((endpoint) => endpoint.name)).toEqual(json.map((benchmark) => benchmark.fullName));
    expect(text).toContain(" RUN  v4.1.12 ");
    expect(run.toolVersion).toBe("4.1.12");
    expect(run.environment.testbed).toBeNull();
  });

  it("reads each table row as printed, which is the JSON's rounded to 4 decimals (hz to 2)", () => {
    run.endpoints.forEach((endpoint, index) => {
      const [hz, min, max, mean, p75, p99, p995, p999, , samples] = rows[index]!.cells as [
        number,
        number,
        number,
        number,
        number,
        number,
        number,
        number,
        number,
        number,
      ];
      expect(endpoint.latency).toEqual({
        meanMs: mean,
        stdDevMs: null,
        minMs: min,
        maxMs: max,
        percentiles: { "75": p75, "99": p99, "99.5": p995, "99.9": p999 },
      });
      expect(endpoint.requests).toBe(samples);
      expect(endpoint.throughput).toBe(hz);
      const exact = json[index]!;
      expect(samples).toBe(exact.sampleCount);
      const halfStep = (value: number) => (value < 100 ? 0.00005 : 0.005) + 1e-12;
      for (const [printed, value] of [
        [min, exact.min],
        [max, exact.max],
        [mean, exact.mean],
        [p75, exact.p75],
        [p99, exact.p99],
        [p995, exact.p995],
        [p999, exact.p999],
        [hz, exact.hz],
      ] as const) {
        expect(Math.abs(printed - value)).toBeLessThanOrEqual(halfStep(value));
      }
    });
  });

  it("matches the values printed in the file", () => {
    expect(run.endpoints[5]).toMatchObject({
      name: "micro.bench.js > sort > sort 10000 numbers",
      requests: 755,
      throughput: 1508.6,
      latency: { meanMs: 0.6629, minMs: 0.6484, maxMs: 1.4064, percentiles: { "99.9": 1.4064 } },
    });
  });
});

describe("vitest bench console output: other logs and bad ones", () => {
  const text = readFixture(TEXT_PATH);
  const lines = text.split("\n");
  const expected = parseVitestBenchText(text, "vitest-bench.txt");
  const esc = String.fromCharCode(27);
  const upload = (body: string) => parseUpload({ files: [{ name: "vitest-bench.txt", text: body }] });

  it("reads a log with npm's warning first, colours, CRLF and older vitest's fastest/slowest marks", () => {
    const other = [
      'npm warn Unknown user config "nodedir". This will stop working in the next major version of npm.',
      ...lines.map((line) => (line.includes("· parse 200 records") ? `${line}   slowest` : line)),
    ]
      .join("\r\n")
      .replace(" ✓ micro.bench.js > json", ` ${esc}[32m✓${esc}[39m micro.bench.js > json`);
    const parsed = upload(other);
    expect(parsed.format).toBe("vitest-bench-text");
    expect(parsed.run.endpoints).toEqual(expected.endpoints);
  });

  it("refuses an empty table, naming the line where its rows should be", () => {
    const header = lines.findIndex((line) => line.includes("name") && line.includes("samples"));
    const empty = [...lines.slice(0, header + 1), ...lines.slice(header + 3)].join("\n");
    expect(errorOf(() => upload(empty)).details).toEqual([
      { path: `vitest-bench.txt: line ${header + 2}`, message: 'the table of "micro.bench.js > json" has no rows' },
    ]);
  });

  it("refuses a row with a missing column or a word where a number belongs, naming its line", () => {
    const rowIndex = lines.findIndex((line) => line.includes("· join 1000 ints"));
    const missing = lines.map((line, index) => (index === rowIndex ? line.replace(/ +23764$/, "") : line)).join("\n");
    expect(errorOf(() => upload(missing)).details[0]?.path).toBe(`vitest-bench.txt: line ${rowIndex + 1}`);
    const word = text.replace("0.5912", "fast");
    expect(errorOf(() => upload(word)).details[0]).toEqual({
      path: `vitest-bench.txt: line ${rowIndex + 1}`,
      message: 'the max column holds "fast", not a number',
    });
  });

  it("refuses a table with no group line above it, and rows with no table header", () => {
    const noGroup = lines.filter((line) => !line.startsWith(" ✓ micro.bench.js > json ")).join("\n");
    expect(errorOf(() => upload(noGroup)).details[0]?.message).toContain("no `✓ <file> > <group>` line above it");
    const noHeader = lines.filter((line) => !/^ +name +hz/.test(line) || !lines.slice(0, 8).includes(line)).join("\n");
    expect(errorOf(() => upload(noHeader)).details[0]?.message).toBe("a benchmark row with no table header above it");
  });
});

describe("vitest bench detection", () => {
  it("claims exactly the vitest fixtures, each as its own format, and no other tool's file", () => {
    for (const path of allFixtureFiles()) {
      const formats = detectedFormats(path, [FOLDER]).filter(
        (format) => format === "vitest-bench" || format === "vitest-bench-text",
      );
      const expected = path.startsWith(`${FOLDER}/`) ? [expectedFormatOf(path)] : [];
      expect({ path, formats }).toEqual({ path, formats: expected });
    }
  });
});

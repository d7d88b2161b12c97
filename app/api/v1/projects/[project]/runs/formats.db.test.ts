import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FORMATS, parseUpload, toBenchtrackDocument } from "@/server/domain/parsers";
import { fixtureUploads, type FixtureUpload } from "@/server/domain/parsers/fixtures/fixture-uploads";
import type { FormatId } from "@/server/domain/run";
import { uniqueSlug } from "@/server/testing/databases";
import { call, setUpRouteTestDatabase } from "@/server/testing/rest-client";
import { GET as getRun } from "./[id]/route";
import { POST as uploadRun } from "./route";

// Every real tool output in the fixtures, uploaded as a user would (the bare file with no name and no
// ?format=, or a set as multipart), on the database the environment names (CI runs this file on the
// embedded database and on PostgreSQL). Each run must read back as its parser made it, and its
// aggregate's request count and one percentile must equal the file's own, read here independently of
// the parsers (for row-per-request files: computed here from the rows).

const FIXTURES = path.resolve(import.meta.dirname, "../../../../../../server/domain/parsers/fixtures");
const fixtureText = (relative: string) => readFileSync(path.join(FIXTURES, relative), "utf8");

type Json = Record<string, any>;

setUpRouteTestDatabase();

/** Linear interpolation between the two nearest ranks (k6's and NumPy's default), written out here. */
function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p / 100) * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.min(low + 1, sorted.length - 1);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (rank - low);
}

/** A Go duration as vegeta prints it ("1.453ms", "11.996s", "850µs") in ms. */
function goDurationMs(text: string): number {
  const match = /^([\d.]+)(ns|us|µs|ms|s)$/.exec(text.trim());
  if (!match) throw new Error(`not a duration: ${text}`);
  const factor = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000 }[match[2] as "ns" | "us" | "µs" | "ms" | "s"];
  return Number(match[1]) * factor;
}

function csvRows(text: string): string[][] {
  return text
    .trim()
    .split(/\r?\n/)
    .map((line) => line.split(","));
}

/**
 * The file's own figures: for a load test, the aggregate's request count and a percentile (key → ms) when
 * the file states one; for a benchmark file, some benchmarks' sample counts and time per operation
 * (`latency` key → ms) as the file writes them.
 */
interface FileFacts {
  requests?: number;
  percentile?: { key: string; valueMs: number; digits?: number };
  benchmarks?: { name: string; samples: number | null; key: string; valueMs: number; digits?: number }[];
  /** Benchmarks counted, not timed (Valgrind): a metric's value as the file states it. */
  counts?: { name: string; metric: string; value: number }[];
}

/**
 * A Valgrind file's instruction counts: per part (callgrind's `part:`; a cachegrind file is one), its
 * `Ir` from the part's `totals:` (callgrind) or `summary:` (cachegrind), named by the dump's client
 * request, else by the command's arguments. What ran after a process's last dump is no benchmark.
 */
function valgrindFacts(files: { text: string }[]): FileFacts {
  const counts = files.flatMap(({ text }) => {
    const args = /^cmd:\s+\S+\s+(.*)$/m.exec(text)![1]!.trim();
    const chunks = /^part: /m.test(text) ? text.split(/^(?=part: )/m).slice(1) : [text];
    const dumps = chunks.some((chunk) => /^desc: Trigger: Client Request/m.test(chunk));
    let events: string[] = [];
    return chunks.flatMap((chunk) => {
      events = /^events: (.*)$/m.exec(chunk)?.[1]!.trim().split(/\s+/) ?? events;
      const request = /^desc: Trigger: Client Request: (.*)$/m.exec(chunk)?.[1];
      if (dumps && request === undefined) return [];
      const total = (/^totals: (.*)$/m.exec(chunk) ?? /^summary: (.*)$/m.exec(chunk))![1]!.trim().split(/\s+/);
      return [{ name: request ?? args, metric: "instructions", value: Number(total[events.indexOf("Ir")]) }];
    });
  });
  // One file per dump: the process's last file (its termination) holds no dump, and is no benchmark.
  const isSplit = files.length > 1 && files.some(({ text }) => /^desc: Trigger: Client Request/m.test(text));
  return { counts: isSplit ? counts.filter((count) => count.name !== "all") : counts };
}

/**
 * go test -bench text: each benchmark's ns/op lines (the -N GOMAXPROCS suffix dropped, the package as the
 * group), their median and maximum in ms.
 */
function goBenchFacts(text: string): FileFacts {
  const pkg = /^pkg: (\S+)$/m.exec(text)![1];
  const nsPerOp = new Map<string, number[]>();
  for (const [, name = "", ns = ""] of text.matchAll(/^(Benchmark\S+)-\d+\s+\d+\s+([\d.]+) ns\/op/gm)) {
    nsPerOp.set(name, [...(nsPerOp.get(name) ?? []), Number(ns) / 1e6]);
  }
  expect(nsPerOp.size).toBeGreaterThan(3);
  return {
    benchmarks: [...nsPerOp].flatMap(([name, values]) => [
      { name: `${pkg} > ${name}`, samples: values.length, key: "p50", valueMs: percentile(values, 50), digits: 12 },
      { name: `${pkg} > ${name}`, samples: values.length, key: "max", valueMs: Math.max(...values), digits: 12 },
    ]),
  };
}

const FACTS: Record<FormatId, (files: { path: string; text: string }[]) => FileFacts> = {
  "k6-summary": ([file]) => {
    const metrics = JSON.parse(file!.text).metrics as Json;
    return {
      requests: metrics.http_reqs.count,
      percentile: { key: "p95", valueMs: metrics.http_req_duration["p(95)"] },
    };
  },
  "k6-handle-summary": ([file]) => {
    const metrics = JSON.parse(file!.text).metrics as Json;
    return {
      requests: metrics.http_reqs.values.count,
      percentile: { key: "p95", valueMs: metrics.http_req_duration.values["p(95)"] },
    };
  },
  "k6-new-summary": ([file]) => {
    const metrics = JSON.parse(file!.text).results.metrics as Json[];
    const named = (name: string) => metrics.find((metric) => metric.name === name)!.values as Json;
    return { requests: named("http_reqs").count, percentile: { key: "p95", valueMs: named("http_req_duration").p95 } };
  },
  "k6-ndjson": ([file]) => {
    const points = file!.text
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => JSON.parse(line) as Json);
    const of = (metric: string) => points.filter((point) => point.type === "Point" && point.metric === metric);
    const durations = of("http_req_duration").map((point) => point.data.value as number);
    return {
      requests: of("http_reqs").length,
      percentile: { key: "p95", valueMs: percentile(durations, 95), digits: 9 },
    };
  },
  "locust-json": ([file]) => ({
    requests: (JSON.parse(file!.text) as Json[]).reduce((sum, entry) => sum + entry.num_requests, 0),
  }),
  "locust-csv": (files) => {
    const stats = files.find((file) => file.path.endsWith("_stats.csv"))!;
    const [header, ...rows] = csvRows(stats.text);
    const aggregated = rows.find((row) => row[header!.indexOf("Name")] === "Aggregated")!;
    const cell = (name: string) => Number(aggregated[header!.indexOf(name)]);
    return { requests: cell("Request Count"), percentile: { key: "p95", valueMs: cell("95%") } };
  },
  "locust-html": ([file]) => {
    const start = file!.text.lastIndexOf("window.templateArgs = ") + "window.templateArgs = ".length;
    const end = file!.text.indexOf("\n", start);
    const args = JSON.parse(file!.text.slice(start, end).replace(/;\s*$/, "")) as Json;
    const aggregated = (args.requests_statistics as Json[]).find((row) => row.name === "Aggregated")!;
    return {
      requests: aggregated.num_requests,
      percentile: { key: "p95", valueMs: aggregated["response_time_percentile_0.95"] },
    };
  },
  ghz: (files) => {
    const reports = files.map((file) => JSON.parse(file.text) as Json);
    const requests = reports.reduce((sum, report) => sum + report.count, 0);
    if (reports.length === 1) {
      const p95 = (reports[0]!.latencyDistribution as Json[]).find((entry) => entry.percentage === 95)!.latency / 1e6;
      return { requests, percentile: { key: "p95", valueMs: p95 } };
    }
    // Several reports: the exact p95 of every OK call's latency.
    const ok = reports.flatMap((report) =>
      (report.details as Json[]).filter((d) => d.status === "OK").map((d) => d.latency / 1e6),
    );
    return { requests, percentile: { key: "p95", valueMs: percentile(ok, 95), digits: 9 } };
  },
  "ghz-csv": (files) => {
    const rows = files.flatMap((file) => csvRows(file.text).slice(1));
    const ok = rows.filter((row) => row[1] === "OK").map((row) => Number(row[0]));
    return { requests: rows.length, percentile: { key: "p95", valueMs: percentile(ok, 95), digits: 9 } };
  },
  "vegeta-json": (files) => {
    const report = JSON.parse(files.find((file) => file.path.endsWith(".json"))!.text) as Json;
    return { requests: report.requests, percentile: { key: "p95", valueMs: report.latencies["95th"] / 1e6 } };
  },
  "vegeta-text": ([file]) => {
    const requests = Number(/^Requests\s+\[total, rate, throughput\]\s+(\d+)/m.exec(file!.text)![1]);
    const latencies = /^Latencies\s+\[([^\]]+)\]\s+(.+)$/m.exec(file!.text)!;
    const names = latencies[1]!.split(",").map((name) => name.trim());
    const values = latencies[2]!.split(",").map((value) => value.trim());
    return { requests, percentile: { key: "p95", valueMs: goDurationMs(values[names.indexOf("95")]!) } };
  },
  "vegeta-hist": ([file]) => ({
    requests: [...file!.text.matchAll(/^\[[^\]]+\]\s+(\d+)\s/gm)].reduce((sum, match) => sum + Number(match[1]), 0),
  }),
  "hey-text": ([file]) => ({
    requests: [...file!.text.matchAll(/^\s+\[\d+\]\s+(\d+) responses/gm)].reduce(
      (sum, match) => sum + Number(match[1]),
      0,
    ),
    percentile: { key: "p95", valueMs: Number(/^\s+95% in ([\d.]+) secs/m.exec(file!.text)![1]) * 1000 },
  }),
  "hey-csv": ([file]) => {
    const rows = csvRows(file!.text).slice(1);
    return {
      requests: rows.length,
      percentile: {
        key: "p95",
        valueMs: percentile(
          rows.map((row) => Number(row[0]) * 1000),
          95,
        ),
        digits: 9,
      },
    };
  },
  "wrk-text": ([file]) => {
    const p90 = /^\s+90%\s+([\d.]+)(us|ms|s)$/m.exec(file!.text)!;
    return {
      requests: Number(/^\s+(\d+) requests in /m.exec(file!.text)![1]),
      percentile: { key: "p90", valueMs: Number(p90[1]) * { us: 0.001, ms: 1, s: 1000 }[p90[2] as "us" | "ms" | "s"] },
    };
  },
  "autocannon-json": ([file]) => {
    const result = JSON.parse(file!.text) as Json;
    return { requests: result.requests.total + result.errors, percentile: { key: "p99", valueMs: result.latency.p99 } };
  },
  "artillery-json": (files) => {
    const aggregate = (JSON.parse(files.find((file) => file.path.endsWith(".json"))!.text) as Json).aggregate;
    return {
      requests: aggregate.counters["http.requests"],
      percentile: { key: "p95", valueMs: aggregate.summaries["http.response_time"].p95 },
    };
  },
  "artillery-console": ([file]) => {
    const summary = file!.text.slice(file!.text.lastIndexOf("Summary report @"));
    const p95 = /^http\.response_time:\n(?:\s+\w+: \.+ [\d.]+\n)*?\s+p95: \.+ ([\d.]+)$/m.exec(summary)!;
    return {
      requests: Number(/^http\.requests: \.+ (\d+)$/m.exec(summary)![1]),
      percentile: { key: "p95", valueMs: Number(p95[1]) },
    };
  },
  "jmeter-csv": () => {
    throw new Error("no JMeter fixture");
  },
  "jmeter-xml": () => {
    throw new Error("no JMeter fixture");
  },
  benchtrack: () => {
    throw new Error("no Benchtrack fixture");
  },
  // Microbenchmarks: each parser's author writes its file's facts.
  "go-bench-text": ([file]) => goBenchFacts(file!.text),

  "go-bench-json": ([file]) => {
    // test2json's output events, joined in order: the text go test printed (split result lines rejoined).
    const events = file!.text
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => JSON.parse(line) as Json);
    return goBenchFacts(
      events
        .filter((event) => event.Action === "output")
        .map((event) => event.Output as string)
        .join(""),
    );
  },

  "hyperfine-json": ([file]) => ({
    // One benchmark per command; its samples are the timed runs (`times`, seconds).
    benchmarks: (JSON.parse(file!.text).results as Json[]).map((result) => ({
      name: result.command,
      samples: result.times.length,
      key: "mean",
      valueMs: result.mean * 1000,
    })),
  }),

  "hyperfine-csv": ([file]) => {
    const [header, ...rows] = csvRows(file!.text);
    const cell = (row: string[], name: string) => row[header!.indexOf(name)]!;
    return {
      benchmarks: rows.flatMap((row) => [
        { name: cell(row, "command"), samples: null, key: "mean", valueMs: Number(cell(row, "mean")) * 1000 },
        { name: cell(row, "command"), samples: null, key: "p50", valueMs: Number(cell(row, "median")) * 1000 },
      ]),
    };
  },

  "hyperfine-markdown": ([file]) => {
    const unit = /^\| Command \| Mean \[(\w+)\]/.exec(file!.text)![1] as "s" | "ms";
    const rows = [...file!.text.matchAll(/^\| `(.+)` \| ([\d.]+)(?: ± [\d.]+)? \| ([\d.]+) \|/gm)];
    return {
      benchmarks: rows.map((row) => ({
        name: row[1]!,
        samples: null,
        key: "mean",
        valueMs: Number(row[2]) * { s: 1000, ms: 1 }[unit],
      })),
    };
  },

  "hyperfine-text": ([file]) => {
    const blocks = [
      ...file!.text.matchAll(
        /^Benchmark \d+: (.+)\n {2}Time \(mean ± σ\): +([\d.]+) ms ±.*\n {2}Range \(min … max\): +([\d.]+) ms … .* (\d+) runs/gm,
      ),
    ];
    return {
      benchmarks: blocks.flatMap((block) => [
        { name: block[1]!, samples: Number(block[4]), key: "mean", valueMs: Number(block[2]) },
        { name: block[1]!, samples: Number(block[4]), key: "min", valueMs: Number(block[3]) },
      ]),
    };
  },

  // Every benchmark: its rounds, and pytest-benchmark's own mean (stats.mean, seconds).
  "pytest-benchmark": ([file]) => ({
    benchmarks: (JSON.parse(file!.text).benchmarks as Json[]).map((benchmark) => ({
      name: `${benchmark.group} > ${benchmark.name}`,
      samples: benchmark.stats.rounds,
      key: "mean",
      valueMs: benchmark.stats.mean * 1000,
    })),
  }),

  // Every row of every table: Rounds (the last column) and Mean (the third number) in the table's unit.
  "pytest-benchmark-text": ([file]) => {
    const benchmarks: NonNullable<FileFacts["benchmarks"]> = [];
    let group = "";
    let unitMs = Number.NaN;
    for (const raw of file!.text.split("\n")) {
      const line = raw.slice(raw.lastIndexOf("\r") + 1);
      const header = / benchmark '([^']+)': \d+ tests /.exec(line);
      const labels = /^Name \(time in (us|ms)\)/.exec(line);
      if (header) group = header[1]!;
      else if (labels) unitMs = labels[1] === "us" ? 1e-3 : 1;
      else if (/^test_\S+ +\d[\d,.]* /.test(line)) {
        const [name, ...cells] = line.split(/ +/).filter((cell) => !cell.startsWith("("));
        benchmarks.push({
          name: `${group} > ${name}`,
          samples: Number(cells.at(-1)),
          key: "mean",
          valueMs: Number(cells[2]!.replaceAll(",", "")) * unitMs,
          digits: 12,
        });
      }
    }
    return { benchmarks };
  },

  // Every benchmark: its repetitions (iteration rows) and Google Benchmark's own mean of them (the
  // `_mean` aggregate), or the one row's real time without repetitions (ns).
  "google-benchmark-json": ([file]) => {
    const rows = JSON.parse(file!.text).benchmarks as Json[];
    const names = [...new Set(rows.filter((row) => row.run_type === "iteration").map((row) => row.run_name as string))];
    return {
      benchmarks: names.map((name) => {
        const iterations = rows.filter((row) => row.run_name === name && row.run_type === "iteration");
        const mean = rows.find((row) => row.run_name === name && row.aggregate_name === "mean") ?? iterations[0]!;
        return { name, samples: iterations.length, key: "mean", valueMs: mean.real_time * 1e-6, digits: 12 };
      }),
    };
  },

  // Every `<name>_median` row: the repetitions it is over (Iterations) and its time (ns), which is the
  // middle repetition as printed.
  "google-benchmark-console": ([file]) => ({
    benchmarks: file!.text
      .split("\n")
      .filter((line) => /^\S+_median +[\d.]+ ns /.test(line))
      .map((line) => {
        const [name, time, , , , repetitions] = line.split(/ +/);
        return { name: name!.replace(/_median$/, ""), samples: Number(repetitions), key: "p50", valueMs: Number(time) * 1e-6, digits: 12 };
      }),
  }),

  "vitest-bench": ([file]) => ({
    // Named by the group as vitest names it (file > describe), then the bench; no samples in vitest 4.
    benchmarks: (JSON.parse(file!.text).files as Json[]).flatMap((entry) =>
      (entry.groups as Json[]).flatMap((group) =>
        (group.benchmarks as Json[]).map((benchmark) => ({
          name: `${group.fullName} > ${benchmark.name}`,
          samples: benchmark.sampleCount,
          key: "p75",
          valueMs: benchmark.p75,
        })),
      ),
    ),
  }),

  "vitest-bench-text": ([file]) => {
    const benchmarks: NonNullable<FileFacts["benchmarks"]> = [];
    let group = "";
    for (const line of file!.text.split("\n")) {
      group = /^ ✓ (.+) \d+ms$/.exec(line)?.[1] ?? group;
      const row = /^ {3}· (.+?) +[\d,.]+ +[\d.]+ +[\d.]+ +[\d.]+ +[\d.]+ +([\d.]+) +[\d.]+ +[\d.]+ +±[\d.]+% +(\d+)$/.exec(line);
      if (row) benchmarks.push({ name: `${group} > ${row[1]}`, samples: Number(row[3]), key: "p99", valueMs: Number(row[2]) });
    }
    return { benchmarks };
  },

  "benchmarkjs-text": ([file]) => ({
    benchmarks: [...file!.text.matchAll(/^(.+) x ([\d,.]+) ops\/sec ±([\d.]+)% \((\d+) runs sampled\)$/gm)].flatMap(
      ([, name = "", hz = "", rme = "", runs = ""]) => {
        const meanMs = 1000 / Number(hz.replaceAll(",", ""));
        const samples = Number(runs);
        // benchmark.js: rme = 100 · (sd / √n) · t / mean, t = 1.96 (its tTable's "infinity") past 30 df.
        expect(samples - 1).toBeGreaterThan(30);
        const stdDevMs = ((Number(rme) / 100) * meanMs * Math.sqrt(samples)) / 1.96;
        return [
          { name, samples, key: "mean", valueMs: meanMs },
          { name, samples, key: "stdDev", valueMs: stdDevMs },
        ];
      },
    ),
  }),

  // JMH: each rawData iteration is a sample (time units to ms; a throughput by its reciprocal); sample
  // mode's count is its histogram's total and its mean JMH's score.
  "jmh-json": ([file]) => {
    const unitMs: Record<string, number> = { ns: 1e-6, us: 1e-3, ms: 1, s: 1000 };
    const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
    return {
      benchmarks: (JSON.parse(file!.text) as Json[]).map((result) => {
        const params = Object.entries((result.params ?? {}) as Record<string, string>);
        const name = `${result.benchmark}${params.length ? `:${params.map(([k, v]) => `${k}=${v}`).join(",")}` : ""}`;
        const [numerator, denominator] = (result.primaryMetric.scoreUnit as string).split("/") as [string, string];
        if (result.mode === "sample") {
          const pairs = (result.primaryMetric.rawDataHistogram as [number, number][][][]).flat(2);
          const samples = pairs.reduce((sum, [, count]) => sum + count, 0);
          return { name, samples, key: "mean", valueMs: result.primaryMetric.score * unitMs[numerator]! };
        }
        const raw = (result.primaryMetric.rawData as number[][]).flat();
        const timesMs =
          result.mode === "thrpt" ? raw.map((t) => unitMs[denominator]! / t) : raw.map((v) => v * unitMs[numerator]!);
        return { name, samples: raw.length, key: "mean", valueMs: mean(timesMs) };
      }),
    };
  },

  // Criterion: a benchmark per benchmark.json, with its folder's sample.json (times[i] / iters[i] ns).
  "criterion-json": (files) => {
    const sibling = (path: string, kind: string) => files.find((f) => f.path === path.replace(/benchmark\.json$/, kind));
    return {
      benchmarks: files
        .filter((file) => file.path.endsWith("/benchmark.json"))
        .map((file) => {
          const sample = JSON.parse(sibling(file.path, "sample.json")!.text) as { iters: number[]; times: number[] };
          const perIteration = sample.times.map((time, index) => time / sample.iters[index]!);
          return {
            name: (JSON.parse(file.text) as Json).full_id as string,
            samples: sample.iters.length,
            key: "mean",
            valueMs: perIteration.reduce((sum, ns) => sum + ns, 0) / perIteration.length / 1e6,
          };
        }),
    };
  },

  // Valgrind: each benchmark's Ir as the file's summary:/totals: line states it.
  cachegrind: valgrindFacts,
  callgrind: valgrindFacts,

  // BenchmarkDotNet: the report's own Statistics (N, Mean in ns) of each case, by FullName.
  "benchmarkdotnet-json": (files) => ({
    benchmarks: files.flatMap((file) =>
      ((JSON.parse(file.text) as Json).Benchmarks as Json[]).map((benchmark) => ({
        name: benchmark.FullName as string,
        samples: benchmark.Statistics.N as number,
        key: "mean",
        valueMs: (benchmark.Statistics.Mean as number) / 1e6,
      })),
    ),
  }),

  // github-action-benchmark's custom JSON and Bencher's BMF keep their examples beside their parsers (their
  // unit tests read them), none in these fixtures; were one added, its time per operation is read here.
  "custom-smaller-is-better": ([file]) => ({
    benchmarks: (JSON.parse(file!.text) as Json[])
      .filter((bench) => bench.unit === "ns/iter" || bench.unit === "ns/op")
      .map((bench) => ({ name: bench.name as string, samples: null, key: "mean", valueMs: (bench.value as number) / 1e6 })),
  }),
  "custom-bigger-is-better": ([file]) => ({
    benchmarks: (JSON.parse(file!.text) as Json[])
      .filter((bench) => bench.unit === "ops/sec")
      .map((bench) => ({ name: bench.name as string, samples: null, key: "mean", valueMs: 1000 / (bench.value as number) })),
  }),
  "bencher-bmf": ([file]) => ({
    benchmarks: Object.entries(JSON.parse(file!.text) as Json)
      .filter(([, measures]) => measures.latency !== undefined)
      .map(([name, measures]) => ({ name, samples: null, key: "mean", valueMs: (measures.latency.value as number) / 1e6 })),
  }),
};

function bodyOf(upload: FixtureUpload): BodyInit {
  if (!upload.multipart) return fixtureText(upload.files[0]!.path);
  const form = new FormData();
  for (const { path: file, name } of upload.files)
    form.append(name ?? "file", new Blob([fixtureText(file)]), name ?? "file");
  return form;
}

describe("every fixture uploads with plain curl (or multipart) and reads back with its own numbers", () => {
  const uploads = fixtureUploads();

  it.each(uploads.map((upload) => [upload.title, upload] as const))("%s", async (_title, upload) => {
    const slug = uniqueSlug("format");
    const response = await call(
      uploadRun,
      `/api/v1/projects/${slug}/runs`,
      { project: slug },
      { method: "POST", body: bodyOf(upload) },
    );
    const json = (await response.json()) as Json;
    expect({ status: response.status, format: json.format }).toEqual({ status: 201, format: upload.format });

    const stored = (await (
      await call(getRun, `/api/v1/projects/${slug}/runs/${json.id}`, { project: slug, id: json.id as string })
    ).json()) as Json;
    const files = upload.files.map(({ path: file, name }) => ({ path: file, name, text: fixtureText(file) }));
    const expected = toBenchtrackDocument(parseUpload({ files: files.map(({ name, text }) => ({ name, text })) }).run);
    expect(stored.format).toBe(upload.format);
    expect(stored.tool).toBe(FORMATS[upload.format].tool);
    expect(stored.endpoints).toEqual(expected.endpoints);
    expect(stored.aggregate).toEqual(expected.aggregate);
    expect(stored.metrics).toEqual(expected.metrics);
    expect(stored.thresholds).toEqual(expected.thresholds);
    expect(stored.checks).toEqual(expected.checks);
    expect(json.run).toEqual(stored);

    const facts = FACTS[upload.format](files);
    if (facts.requests !== undefined) expect(stored.aggregate.requests).toBe(facts.requests);
    // Facts that found no benchmark in the file would check nothing.
    if (facts.benchmarks) expect(facts.benchmarks.length).toBeGreaterThan(0);
    if (facts.counts) expect(facts.counts.map((count) => count.name)).toEqual((stored.endpoints as Json[]).map((e) => e.name));
    for (const count of facts.counts ?? []) {
      const endpoint = (stored.endpoints as Json[]).find((candidate) => candidate.name === count.name);
      expect(endpoint?.metrics[count.metric], `${count.name} ${count.metric}`).toEqual({
        value: count.value,
        unit: "instructions",
        better: "lower",
        exact: true,
      });
    }
    for (const benchmark of facts.benchmarks ?? []) {
      const endpoint = (stored.endpoints as Json[]).find((candidate) => candidate.name === benchmark.name);
      expect(endpoint, benchmark.name).toBeDefined();
      expect(endpoint!.requests, `${benchmark.name} samples`).toBe(benchmark.samples);
      expect(endpoint!.latency[benchmark.key], `${benchmark.name} ${benchmark.key}`).toBeCloseTo(benchmark.valueMs, benchmark.digits ?? 9);
    }
    if (facts.percentile)
      expect(stored.aggregate.latency[facts.percentile.key]).toBeCloseTo(
        facts.percentile.valueMs,
        facts.percentile.digits ?? 6,
      );
  });

  it("a JMeter JTL (CSV, written here in JMeter's documented layout) uploads with exact percentiles per label", async () => {
    const slug = uniqueSlug("jmeter");
    const header =
      "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect";
    const elapsed = { GetListing: [12, 7, 31, 9, 15, 4, 22], Search: [40, 35, 61, 29] };
    const lines = Object.entries(elapsed).flatMap(([label, values]) =>
      values.map((value, index) => {
        const ok = !(label === "Search" && index === 2);
        return `${1795339200000 + index * 100},${value},${label},${ok ? 200 : 500},${ok ? "OK" : "Internal Server Error"},Group 1-1,text,${ok},${ok ? "" : "Test failed"},512,120,1,1,http://127.0.0.1:18080/api/${label},${value - 1},0,1`;
      }),
    );
    const response = await call(
      uploadRun,
      `/api/v1/projects/${slug}/runs`,
      { project: slug },
      { method: "POST", body: [header, ...lines].join("\n") },
    );
    const json = (await response.json()) as Json;
    expect({ status: response.status, format: json.format }).toEqual({ status: 201, format: "jmeter-csv" });
    for (const [label, values] of Object.entries(elapsed)) {
      const endpoint = (json.run.endpoints as Json[]).find((candidate) => candidate.name === label)!;
      expect(endpoint.requests).toBe(values.length);
      expect(endpoint.latency.p95).toBeCloseTo(percentile(values, 95), 9);
      expect(endpoint.histogram.buckets.reduce((sum: number, bucket: Json) => sum + bucket.count, 0)).toBe(
        values.length,
      );
    }
    expect(json.run.aggregate.failures).toBe(1);
  });

  it("names a single-target report's endpoint with ?endpoint=", async () => {
    const slug = uniqueSlug("named");
    const response = await call(
      uploadRun,
      `/api/v1/projects/${slug}/runs`,
      { project: slug },
      {
        method: "POST",
        body: fixtureText("hey/baseline/round1/hey.txt"),
        query: { endpoint: "GetListing" },
      },
    );
    const json = (await response.json()) as Json;
    expect(response.status).toBe(201);
    expect(json.endpoints).toEqual(["GetListing"]);
    expect(json.run.endpoints[0].requests).toBe(json.run.aggregate.requests);
    expect(json.run.endpoints[0].latency).toEqual(json.run.aggregate.latency);
  });

  it("refuses ?endpoint= on a report of several endpoints, and an unknown ?format=, with their paths", async () => {
    const slug = uniqueSlug("refused");
    const several = await call(
      uploadRun,
      `/api/v1/projects/${slug}/runs`,
      { project: slug },
      {
        method: "POST",
        body: fixtureText("artillery/baseline/round1/report.json"),
        query: { endpoint: "GetListing" },
      },
    );
    expect(several.status).toBe(400);
    expect(((await several.json()) as Json).error.details[0].path).toBe("query.endpoint");
    const unknown = await call(
      uploadRun,
      `/api/v1/projects/${slug}/runs`,
      { project: slug },
      {
        method: "POST",
        body: fixtureText("wrk/baseline/round1/wrk.txt"),
        query: { format: "gatling" },
      },
    );
    expect(unknown.status).toBe(400);
    const error = ((await unknown.json()) as Json).error;
    expect(error.details[0].path).toBe("query.format");
    expect(error.message).toContain("wrk");
    expect(error.message).toContain("/docs/api");
  });
});

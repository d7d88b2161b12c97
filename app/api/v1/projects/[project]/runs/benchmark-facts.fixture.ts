/* eslint-disable @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-member-access -- the tools' JSON, read as the test files read it (eslint.config.js turns these rules off for *.test.ts) */
import { expect } from "vitest";
import { csvRows, percentile, type FactsTable, type FileFacts } from "./file-facts.fixture";
import type { Json } from "./uploads.fixture";

// The microbenchmark formats' own figures (file-facts.fixture.ts): some benchmarks' sample counts and
// times per operation (or, for Valgrind, instruction counts) as the file writes them. Each parser's author
// writes its file's facts.

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

export const BENCHMARK_FACTS = {
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
} satisfies FactsTable;

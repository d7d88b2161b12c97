/**
 * The Go benchmark data format (golang.org/design/14313-benchmark-format), read line by line: what
 * `go test -bench` prints, and what benchstat reads. Both Go formats (the text and `go test -json`,
 * whose output events rejoin into the same text) go through this reader, so a suite gets the same
 * benchmark names whichever one CI uploads.
 *
 * - A configuration line is `key: value` and holds for every result after it until the key comes again.
 *   Go prints `goos:`, `goarch:`, `pkg:` and `cpu:` (since 1.17) once per test binary, so a file of
 *   several packages repeats them; other keys are ignored.
 * - A result line is `<name> <iterations> <value> <unit> [<value> <unit>…]`, split on runs of white
 *   space, with an even number of fields, at least four. The name starts with `Benchmark` (then no
 *   lower-case letter, as Go requires of benchmark functions). Each line is one sample: `-count 5`
 *   prints five lines per benchmark.
 * - Every other line is ignored (the proposal says so): PASS, ok, test logs, what the code under test
 *   prints, a benchmark's name printed alone before its results (`-v`, `-json`). A line that starts as a
 *   result (a name, then whole-number iterations) but is not a valid one is refused with its line.
 *
 * Identity: group = the package (`pkg:`), so two packages never share a benchmark; name = the name as
 * printed, sub-benchmarks included (`BenchmarkSortInts/n=100`), without Go's `-N` GOMAXPROCS suffix when
 * every line of that benchmark has the same N (the usual run: the series then joins across machines of
 * different core counts, whose testbeds tell them apart). When one benchmark was run at several
 * GOMAXPROCS values (`-cpu 1,2,4`), each keeps its name exactly as Go printed it: `BenchmarkX` (Go
 * prints no suffix for 1), `BenchmarkX-2`, `BenchmarkX-4`, three benchmarks. Like benchstat, a final
 * `-<digits>` is read as the GOMAXPROCS suffix.
 *
 * Numbers: `ns/op` is the time per operation of each sample (kept as samples: exact percentiles and a
 * histogram); every other unit (B/op, allocs/op, MB/s, `b.ReportMetric` units such as ns/lookup or
 * hits/op) is a custom metric under Go's own unit, valued at the mean over the lines that have it, with
 * the direction the unit implies (`directionOfUnit`); B/op and allocs/op the same on every line (at least
 * two) are exact counts (`benchmarkMetricOfRepetitions`). A line without ns/op (a benchmark may suppress it
 * with `b.ReportMetric(0, "ns/op")`) adds no time sample.
 */
import { InputError } from "../../input-error";
import type { CustomMetric, EndpointResult, FormatId, ParsedRun } from "../../run";
import { benchmarkMetricOfRepetitions, benchmarkResult, benchmarkRun, toMs } from "../benchmark";
import { benchmarkLimit } from "../validate";

/** The configuration keys Go's testing package prints, as they stand for the results that follow. */
interface GoConfig {
  goos: string | null;
  goarch: string | null;
  pkg: string | null;
  cpu: string | null;
}
const CONFIG_KEYS = ["goos", "goarch", "pkg", "cpu"] as const;

/** One benchmark as printed: package, name without the GOMAXPROCS suffix, and the suffix. */
interface PrintedBenchmark {
  pkg: string | null;
  base: string;
  /** The `-N` suffix; null when the name has none (GOMAXPROCS 1, or a tool that prints none). */
  procs: number | null;
  printed: string;
  samplesMs: number[];
  /** unit → its values over the benchmark's lines, in the order units first appear. */
  metrics: Map<string, number[]>;
}

/** `1.5`, `-3`, `2e-05`, as Go's strconv.FormatFloat and fmt print them (no NaN or Inf: not a measurement). */
const GO_FLOAT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const WHOLE_NUMBER = /^\d+$/;
const FIELD_SEPARATOR = /\s+/;

/** Whether a field is a benchmark name: `Benchmark` then nothing, or a character that is not lower case. */
function isBenchmarkName(field: string): boolean {
  if (!field.startsWith("Benchmark")) return false;
  const next = field.charAt(9);
  return next === "" || !/\p{Ll}/u.test(next);
}

/** A name's final `-<digits>`, read as Go's GOMAXPROCS suffix (testing's benchmarkName). */
function splitProcs(name: string): { base: string; procs: number | null } {
  const dash = name.lastIndexOf("-");
  const digits = name.slice(dash + 1);
  if (dash <= 0 || !WHOLE_NUMBER.test(digits)) return { base: name, procs: null };
  return { base: name.slice(0, dash), procs: Number(digits) };
}

function malformed(where: string, message: string): InputError {
  return new InputError("malformed", `Not valid go test -bench output (${where}: ${message})`, [
    { path: where, message },
  ]);
}

/** "linux/amd64 · AMD EPYC": what the configuration says of the hardware, or null when it says nothing. */
function testbedOf(config: GoConfig): string | null {
  const platform = [config.goos, config.goarch].filter((part) => part !== null).join("/");
  const parts = [platform, config.cpu ?? ""].filter((part) => part !== "");
  return parts.length > 0 ? parts.join(" · ") : null;
}

/**
 * The results of one or more output streams (the text file is one; `go test -json` has one per package).
 * Each stream keeps its own configuration lines; the benchmarks are shared.
 */
export class GoBenchResults {
  private readonly benchmarks = new Map<string, PrintedBenchmark>();
  private readonly testbeds = new Set<string>();
  private readonly platforms: { goos: string | null; goarch: string | null }[] = [];
  private readonly failures: string[] = [];
  private readonly okSeconds: number[] = [];
  private orphanLine: string | null = null;

  /** A new output stream, with no configuration yet. */
  stream(): GoOutputStream {
    return new GoOutputStream(this);
  }

  /** @internal One valid result line, under the configuration in force. */
  addResult(config: GoConfig, name: string, pairs: readonly (readonly [number, string])[], where: string): void {
    const { base, procs } = splitProcs(name);
    const key = `${config.pkg ?? ""}\u0000${name}`;
    let benchmark = this.benchmarks.get(key);
    if (!benchmark) {
      benchmarkLimit(this.benchmarks.size + 1, where);
      benchmark = { pkg: config.pkg, base, procs, printed: name, samplesMs: [], metrics: new Map() };
      this.benchmarks.set(key, benchmark);
    }
    for (const [value, unit] of pairs) {
      if (unit === "ns/op") {
        benchmark.samplesMs.push(toMs(value, "ns"));
        continue;
      }
      const values = benchmark.metrics.get(unit) ?? [];
      values.push(value);
      benchmark.metrics.set(unit, values);
    }
    const testbed = testbedOf(config);
    if (testbed !== null) this.testbeds.add(testbed);
    if (this.platforms.length === 0) this.platforms.push({ goos: config.goos, goarch: config.goarch });
  }

  /** @internal `--- FAIL: BenchmarkX-2` or a package's `FAIL` line. */
  addFailure(what: string): void {
    if (this.failures.length < 20 && !this.failures.includes(what)) this.failures.push(what);
  }

  /** @internal A package's `ok  \t<pkg>\t1.234s` line. */
  addOk(seconds: number): void {
    this.okSeconds.push(seconds);
  }

  /** @internal Numbers and units with no benchmark name before them: a result line broken by other output. */
  addOrphan(where: string): void {
    this.orphanLine ??= where;
  }

  /** The run: one benchmark per package and name (see the file's header for names and metrics). */
  finish(format: FormatId): ParsedRun {
    const procsByBase = new Map<string, Set<number | null>>();
    for (const benchmark of this.benchmarks.values()) {
      const key = `${benchmark.pkg ?? ""}\u0000${benchmark.base}`;
      procsByBase.set(key, (procsByBase.get(key) ?? new Set()).add(benchmark.procs));
    }
    const results: EndpointResult[] = [];
    for (const benchmark of this.benchmarks.values()) {
      const procsValues = procsByBase.get(`${benchmark.pkg ?? ""}\u0000${benchmark.base}`)?.size ?? 1;
      const metrics: Record<string, CustomMetric> = {};
      for (const [unit, values] of benchmark.metrics) metrics[unit] = benchmarkMetricOfRepetitions(values, unit);
      results.push(
        benchmarkResult({
          name: procsValues === 1 ? benchmark.base : benchmark.printed,
          group: benchmark.pkg,
          samplesMs: benchmark.samplesMs,
          metrics,
        }),
      );
    }
    const run = benchmarkRun(format, "go", results);
    this.describeEnvironment(run);
    if (this.failures.length > 0) {
      run.notes.push(
        `go test reported failures: ${this.failures.join(", ")}; the results printed before them are kept`,
      );
    }
    if (this.orphanLine !== null) {
      run.notes.push(
        `${this.orphanLine} (and maybe others) holds benchmark numbers without a benchmark name: output of the code under test broke a result line, and that sample was skipped`,
      );
    }
    if (this.okSeconds.length === 1 && new Set([...this.benchmarks.values()].map((b) => b.pkg)).size === 1) {
      run.durationSeconds = this.okSeconds[0] ?? null;
    }
    return run;
  }

  private describeEnvironment(run: ParsedRun): void {
    const { environment } = run;
    const testbeds = [...this.testbeds];
    environment.testbed = testbeds[0] ?? null;
    if (testbeds.length > 1) {
      const named = testbeds.slice(0, 5).map((testbed) => testbed.slice(0, 120));
      const more = testbeds.length > 5 ? `, and ${testbeds.length - 5} more` : "";
      run.notes.push(`the file states several testbeds (${named.join("; ")}${more}); the first is the run's`);
    }
    const [platform] = this.platforms;
    if (platform?.goos) environment.attributes.goos = platform.goos;
    if (platform?.goarch) environment.attributes.goarch = platform.goarch;
    const all = [...this.benchmarks.values()];
    const packages = new Set(all.map((benchmark) => benchmark.pkg));
    const [pkg] = packages;
    if (packages.size === 1 && pkg) environment.attributes.pkg = pkg;
    // The suffix left the names: where one value holds for the whole file, it is kept here.
    const procs = new Set(all.map((benchmark) => benchmark.procs));
    const [only] = procs;
    if (procs.size === 1 && only !== null && only !== undefined) environment.attributes.gomaxprocs = String(only);
  }
}

/** One stream of Go test output: its configuration lines, and its lines read into the shared results. */
export class GoOutputStream {
  private readonly config: GoConfig = { goos: null, goarch: null, pkg: null, cpu: null };

  constructor(private readonly results: GoBenchResults) {}

  /** Reads one line (without its line break); `where` names it in errors ("gobench.txt: line 12"). */
  readLine(line: string, where: string): void {
    for (const key of CONFIG_KEYS) {
      if (line.startsWith(`${key}:`)) {
        const value = line.slice(key.length + 1).trim();
        this.config[key] = value === "" ? null : value;
        return;
      }
    }
    const fields = line.trim().split(FIELD_SEPARATOR);
    const [first = "", second = ""] = fields;
    if (isBenchmarkName(first)) {
      // A name alone (printed before its results), or a line of other output that starts with one.
      if (!WHOLE_NUMBER.test(second)) return;
      this.results.addResult(this.config, first, readPairs(fields, where), where);
      return;
    }
    this.readOtherLine(fields, where);
  }

  private readOtherLine(fields: readonly string[], where: string): void {
    const [first = "", second = "", third = ""] = fields;
    if (first === "---" && second === "FAIL:" && isBenchmarkName(third)) {
      this.results.addFailure(`${third}${this.config.pkg ? ` (${this.config.pkg})` : ""}`);
    } else if (first === "FAIL" && second !== "") {
      this.results.addFailure(`package ${second}`);
    } else if (first === "ok" && /^\d+(?:\.\d+)?s$/.test(third)) {
      this.results.addOk(Number(third.slice(0, -1)));
    } else if (WHOLE_NUMBER.test(first) && fields.length >= 3 && GO_FLOAT.test(second) && third.endsWith("/op")) {
      this.results.addOrphan(where);
    }
  }
}

/** The value-unit pairs after a result line's name and iterations. */
function readPairs(fields: readonly string[], where: string): [number, string][] {
  if (fields.length < 4 || fields.length % 2 !== 0) {
    throw malformed(
      where,
      `a benchmark result is "<name> <iterations> <value> <unit> [<value> <unit>…]"; this line has ${fields.length} fields (cut short?)`,
    );
  }
  const pairs: [number, string][] = [];
  const units = new Set<string>();
  for (let index = 2; index < fields.length; index += 2) {
    const text = fields[index] ?? "";
    const unit = fields[index + 1] ?? "";
    const value = Number(text);
    if (!GO_FLOAT.test(text) || !Number.isFinite(value)) {
      throw malformed(where, `"${text.slice(0, 40)}" (before ${unit.slice(0, 40)}) is not a number`);
    }
    if (GO_FLOAT.test(unit))
      throw malformed(where, `the value ${text} has no unit ("${unit.slice(0, 40)}" is a number)`);
    if (units.has(unit)) throw malformed(where, `the unit ${unit.slice(0, 40)} appears twice on one line`);
    units.add(unit);
    pairs.push([value, unit]);
  }
  return pairs;
}

/**
 * Every format Benchtrack reads, described once: its name in messages, the tool command that writes it,
 * how to upload it, what its parser keeps and drops, its latency resolution in words, and a ready upload
 * recipe, in documentation order (by tool). The lookups over it (`?format=` names, the README table) are
 * `formats.ts`.
 */
import type { FormatId } from "../run";

export interface FormatInfo {
  id: FormatId;
  /** The tool, as `runs.tool` stores it and `?format=<tool>` names all its formats. */
  tool: string;
  /** Short name used in messages: "vegeta report -type=json". */
  title: string;
  /** The tool command that writes the file (what CI already runs). */
  command: string;
  /** How to send it: one body (`curl --data-binary @file`), or several files as multipart (`curl -F`). */
  upload: "body" | "multipart" | "body or multipart";
  /** What the parser keeps. */
  keeps: string;
  /** What the file holds that the parser drops, or cannot know. */
  drops: string;
  /**
   * The latency resolution, for people: the smallest change a stored latency statistic can show
   * ("full precision" where the tool writes it unrounded). The rule itself is `resolution.ts`.
   */
  resolution: string;
  /** Where the parser was checked: on the tool's real output, or only on files built from its documentation. */
  checkedOn: "real output" | "documented format";
  /** A ready-to-paste upload: `$AUTH` stands for the Authorization header option, `$RUNS` for the runs URL. */
  recipe: string;
  /** The file measures one target and does not name it (hey, vegeta): `?endpoint=` may name it. */
  unnamedTarget?: true;
}

export const FORMAT_LIST: readonly FormatInfo[] = [
  {
    id: "k6-summary",
    tool: "k6",
    title: "k6 --summary-export JSON",
    command: "k6 run --summary-export=summary.json script.js",
    upload: "body",
    keeps:
      "http_req_duration/http_reqs/http_req_failed overall and per `name` sub-metric (endpoints), every threshold with its result, checks with their group path, group and other sub-metrics as run metrics (`<key> <stat>`), custom Counters, Rates, Gauges and Trends with units and direction where known (from a threshold's comparator; time trends lower is better; else unknown), iterations, VUs",
    drops:
      "k6's built-in timing breakdowns (http_req_blocked, _sending, _waiting…), data sent/received, group_duration and iteration_duration unless a threshold names them; endpoints exist only for requests a sub-metric names (a threshold on http_req_duration{name:…})",
    resolution: "full precision (float64 ms of k6's ns timings)",
    checkedOn: "real output",
    recipe: `curl --data-binary @summary.json $AUTH \\\n  "$RUNS?label=baseline&branch=main&commit=9f1c2e7"`,
  },
  {
    id: "k6-handle-summary",
    tool: "k6",
    title: "k6 handleSummary JSON",
    command: "handleSummary(data) { return { 'summary.json': JSON.stringify(data) } }",
    upload: "body",
    keeps:
      "as the --summary-export JSON, plus the test duration (state.testRunDurationMs) and metric units (contains: time)",
    drops: "as the --summary-export JSON; options",
    resolution: "full precision (as the --summary-export JSON)",
    checkedOn: "real output",
    recipe: `curl --data-binary @summary.json $AUTH "$RUNS?label=baseline"`,
  },
  {
    id: "k6-new-summary",
    tool: "k6",
    title: "k6 --new-machine-readable-summary JSON",
    command: "k6 run --new-machine-readable-summary --summary-export=summary.json script.js",
    upload: "body",
    keeps:
      "the same metrics as the legacy summary (p90/p95 keys, rates as matches/total), checks, k6's version, the test's length, the execution mode (local/cloud) as load config, the start time",
    drops:
      "thresholds (the file holds no results, only the script text), executors and scenarios (only inside the script), p99 unless summaryTrendStats asks for it",
    resolution: "full precision (float64 ms, as the legacy summary)",
    checkedOn: "real output",
    recipe: `curl --data-binary @summary.json $AUTH "$RUNS?label=baseline"`,
  },
  {
    id: "k6-ndjson",
    tool: "k6",
    title: "k6 --out json NDJSON",
    command: "k6 run --out json=points.ndjson script.js",
    upload: "body",
    keeps:
      "every http_req_duration sample reduced to exact percentiles and an HDR histogram per endpoint (by the `name` tag, else method and URL), status codes, failures, checks, iterations, constant tags as attributes",
    drops: "threshold results (not written there), other metrics' samples, the samples themselves",
    resolution: "full precision (each point is float64 ms; percentiles are exact over the points)",
    checkedOn: "real output",
    recipe: `gzip -c points.ndjson | curl --data-binary @- -H "Content-Encoding: gzip" $AUTH \\\n  "$RUNS?label=baseline"`,
  },
  {
    id: "locust-json",
    tool: "locust",
    title: "Locust --json output",
    command: "locust --headless --json … > locust.json",
    upload: "body",
    keeps:
      "per-endpoint counts, failures, min/mean/max, Locust's response-time histogram and the percentiles read from it as Locust reads them",
    drops: "per-second counts (num_reqs_per_sec), content length",
    resolution:
      "percentiles in Locust's histogram steps: whole ms below 100 ms, 10 ms below 1 s, 100 ms below 10 s, then 1 s (Locust rounds each response time before counting it); min, mean and max full precision",
    checkedOn: "real output",
    recipe: `curl --data-binary @locust.json $AUTH "$RUNS?label=baseline"`,
  },
  {
    id: "locust-csv",
    tool: "locust",
    title: "Locust --csv files",
    command: "locust --headless --csv=locust [--csv-full-history] …",
    upload: "body or multipart",
    keeps:
      "_stats.csv rows (every percentile column), failures by message, exceptions as notes, the history as a timeline: per endpoint with requests/s, failures/s, p50, p95 and users when written with --csv-full-history, else the aggregate's requests/s, failures/s and users; the start, duration and peak users",
    drops:
      "average content size, the history's running totals (and, without --csv-full-history, its percentiles: they run since the start, not per window)",
    resolution:
      "percentiles in Locust's histogram steps: whole ms below 100 ms, 10 ms below 1 s, 100 ms below 10 s, then 1 s (Locust rounds each response time before counting it); min, average and max full precision",
    checkedOn: "real output",
    recipe: `curl -F stats=@locust_stats.csv -F history=@locust_stats_history.csv -F failures=@locust_failures.csv $AUTH \\\n  "$RUNS?label=baseline"`,
  },
  {
    id: "locust-html",
    tool: "locust",
    title: "Locust --html report",
    command: "locust --headless --html=report.html …",
    upload: "body",
    keeps:
      "the report's inline stats (window.templateArgs): per-endpoint counts, failures, throughput, min/mean/max, every percentile it lists (50…99), failures by message, exceptions as a note, the aggregate's timeline (requests/s, failures/s, p50, p95, users; one point per 5 s), start and end time, host, peak users",
    drops:
      "the page itself, the task ratios, the locustfile name, content lengths; Locust's version (not in the report)",
    resolution:
      "percentiles in Locust's histogram steps: whole ms below 100 ms, 10 ms below 1 s, 100 ms below 10 s, then 1 s (Locust rounds each response time before counting it); min and max whole ms (the report rounds them); mean full precision",
    checkedOn: "real output",
    recipe: `curl --data-binary @report.html $AUTH "$RUNS?label=baseline"`,
  },
  {
    id: "ghz",
    tool: "ghz",
    title: "ghz -O json (or -O pretty) report",
    command: "ghz -O json -o GetListing.json …   (or -O pretty)",
    upload: "body or multipart",
    keeps:
      "one endpoint per report (the gRPC method), count, failures, throughput, min/mean/max, ghz's percentiles, status codes, errors, shutdown cancellations as a note; when details[] is complete, an HDR histogram of the OK calls and exact aggregate percentiles over several reports",
    drops:
      "ghz's own linear histogram when details[] is complete (the HDR one replaces it), request options other than the load profile",
    resolution: "full precision (integer ns)",
    checkedOn: "real output",
    recipe: `curl --data-binary @GetListing.json $AUTH "$RUNS?label=baseline"\n# several methods, one run:\ncurl -F a=@GetListing.json -F b=@ListListings.json $AUTH "$RUNS?label=baseline"`,
  },
  {
    id: "ghz-csv",
    unnamedTarget: true,
    tool: "ghz",
    title: "ghz -O csv output",
    command: "ghz -O csv -o GetListing.csv …",
    upload: "body or multipart",
    keeps:
      "one row per call: one endpoint per file named by the file (GetListing.csv → GetListing; a bare body has only the aggregate unless ?endpoint=), calls, failures (non-OK rows), counts by status, errors by message, and over the OK calls exact min/max/percentiles and an HDR histogram (the mean over all calls, as ghz's JSON average)",
    drops: "start time, duration and throughput (the file has no timestamps), load options, the full method name",
    resolution:
      "10 µs: each call's duration has 2 decimals of ms (percentiles interpolated between calls are no finer); the mean over the calls full precision",
    checkedOn: "real output",
    recipe: `# one endpoint per file, named by the file (GetListing.csv → GetListing):\ncurl -F a=@GetListing.csv -F b=@ListListings.csv $AUTH "$RUNS?label=baseline"\n# a bare body has no name: give it one\ncurl --data-binary @GetListing.csv $AUTH "$RUNS?label=baseline&endpoint=GetListing"`,
  },
  {
    id: "vegeta-json",
    unnamedTarget: true,
    tool: "vegeta",
    title: "vegeta report -type=json",
    command: "vegeta report -type=json results.bin > report.json",
    upload: "body or multipart",
    keeps:
      "the aggregate: requests, failures (status codes outside 200–399, code 0 included, checked against success), throughput (vegeta's rate: all requests per second), min/mean/max and vegeta's percentiles, status codes, start and duration (attack + wait); vegeta's success-only throughput as the run metric success_throughput; the error strings in a note",
    drops:
      "per-target numbers (vegeta does not report them; ?endpoint= names a single-target attack), bytes in/out, error counts (vegeta lists distinct errors without counts)",
    resolution: "full precision (integer ns)",
    checkedOn: "real output",
    recipe: `curl --data-binary @report.json $AUTH "$RUNS?label=baseline&endpoint=GetListing"\n# with the histogram of the same attack:\ncurl -F report=@report.json -F hist=@report-hist.txt $AUTH "$RUNS?label=baseline"`,
  },
  {
    id: "vegeta-text",
    unnamedTarget: true,
    tool: "vegeta",
    title: "vegeta report -type=text",
    command: "vegeta report -type=text results.bin > report.txt",
    upload: "body or multipart",
    keeps: "as the JSON report, from the printed figures (their rounding)",
    drops: "as the JSON report; the start time (not printed)",
    resolution:
      "the unit below the value's own: 1 µs from 1 ms, 1 ms from 1 s, 1 s from 1 min, 1 min from 1 h (vegeta rounds before printing); below 1 ms full ns",
    checkedOn: "real output",
    recipe: `curl --data-binary @report.txt $AUTH "$RUNS?label=baseline"`,
  },
  {
    id: "vegeta-hist",
    unnamedTarget: true,
    tool: "vegeta",
    title: "vegeta report -type=hist",
    command: "vegeta report '-type=hist[0,2ms,5ms,10ms,20ms,50ms,100ms]' results.bin > report-hist.txt",
    upload: "body or multipart",
    keeps:
      "the histogram and its request count; sent with a JSON or text report of the same attack, it adds the histogram to it",
    drops: "percentiles (not in the report), the open last bucket's range",
    resolution: "no latency statistic to round (bucket counts only)",
    checkedOn: "real output",
    recipe: `curl --data-binary @report-hist.txt $AUTH "$RUNS?label=baseline"`,
  },
  {
    id: "hey-text",
    unnamedTarget: true,
    tool: "hey",
    title: "hey text report",
    command: "hey -z 30s -c 10 http://… > hey.txt",
    upload: "body",
    keeps:
      "requests (responses + errors), failures (non-2xx/3xx responses + errors), requests/s, total time, fastest/average/slowest, the 10…99% distribution, hey's 11-bucket histogram, status codes, the error distribution",
    drops:
      "the DNS/dial/write/wait/read details, total data and size per request, the URL (not printed; ?endpoint= names it)",
    resolution: "0.1 ms: every time is printed in seconds with 4 decimals",
    checkedOn: "real output",
    recipe: `curl --data-binary @hey.txt $AUTH "$RUNS?label=baseline&endpoint=GetListing"`,
  },
  {
    id: "hey-csv",
    unnamedTarget: true,
    tool: "hey",
    title: "hey -o csv output",
    command: "hey -n 1000 -c 10 -o csv http://… > hey.csv",
    upload: "body",
    keeps:
      "one row per request: exact min/mean/stdev/max and percentiles (10…99.9), an HDR histogram, status codes, failures (non-2xx/3xx rows), duration from the first request to the last answer and throughput over it",
    drops:
      "the DNS/dial/write/wait/read columns, errored requests (hey leaves them out of the CSV), the start time and URL (not in the file; ?endpoint= names it)",
    resolution:
      "0.1 ms: each row's time is seconds with 4 decimals (percentiles interpolated between rows are no finer); the mean over the rows full precision",
    checkedOn: "real output",
    recipe: `curl --data-binary @hey.csv $AUTH "$RUNS?label=baseline&endpoint=GetListing"`,
  },
  {
    id: "wrk-text",
    tool: "wrk",
    title: "wrk --latency text report",
    command: "wrk -t2 -c10 -d30s --latency http://… > wrk.txt",
    upload: "body",
    keeps:
      "the URL as the endpoint, requests (connect/read/write errors added as attempts), failures (non-2xx/3xx responses and socket errors), duration, requests/s, mean/stdev/max and the 50/75/90/99% distribution (with --latency), threads, connections and the configured duration as load config",
    drops:
      "per-thread Req/Sec statistics, bytes read and transfer rate, the minimum (not printed), a Lua script's own output",
    resolution:
      "two decimals in the unit wrk picks by magnitude: 0.01 µs below 850 µs (percentiles and max are whole µs there), 0.01 ms below 1 s, 10 ms below 51 s, then 0.6 s (a hundredth of a minute)",
    checkedOn: "real output",
    recipe: `curl --data-binary @wrk.txt $AUTH "$RUNS?label=baseline"`,
  },
  {
    id: "autocannon-json",
    tool: "autocannon",
    title: "autocannon --json output",
    command: "autocannon -c 10 -d 30 --json http://… > autocannon.json",
    upload: "body",
    keeps:
      "the URL as the endpoint, requests (responses + connection errors), failures (errors, which include timeouts, plus non-2xx), throughput over the duration, min/mean/stdev/max and all 15 percentiles (p0.001 … p99.999), status codes, errors split into timeouts and connection errors, connections and pipelining as load config, start and duration, bytes read per second as a run metric",
    drops: "the per-second request and byte sample statistics, resets; several URLs leave only the aggregate",
    resolution:
      "whole ms for percentiles, min and max (autocannon's HDR histogram; 2 ms and coarser beyond 262 s); the mean rounded up to 0.01 ms",
    checkedOn: "real output",
    recipe: `curl --data-binary @autocannon.json $AUTH "$RUNS?label=baseline"`,
  },
  {
    id: "artillery-json",
    tool: "artillery",
    title: "artillery report.json",
    command: "artillery run --output report.json script.yml",
    upload: "body or multipart",
    keeps:
      "per-endpoint results from the metrics-by-endpoint plugin (count, min/mean/max, p50/p75/p90/p95/p99/p999, status codes, errors) and the aggregate (http.*, errors.*); requests = responses + errors, failures = status ≥ 400 + errors; throughput over the run's span; the intermediate windows as a timeline; vusers created/completed/failed and session length as run metrics; with the console output in the same upload, the ensure checks as thresholds",
    drops:
      "the .2xx/.5xx splits, bytes downloaded, other plugins' metrics, artillery's http.request_rate (a mean of window rates that partial windows pull down)",
    resolution:
      "percentiles one whole-ms response time or one ~2% sketch bucket (artillery's DDSketch), whichever is larger, shown to 0.1 ms; min and max whole ms; the mean 0.1 ms",
    checkedOn: "real output",
    recipe: `curl --data-binary @report.json $AUTH "$RUNS?label=baseline"\n# with the console output, for the ensure checks:\ncurl -F report=@report.json -F console=@artillery-console.txt $AUTH "$RUNS?label=baseline"`,
  },
  {
    id: "artillery-console",
    tool: "artillery",
    title: "artillery console output",
    command: "artillery run script.yml > artillery-console.txt",
    upload: "body or multipart",
    keeps:
      "the last Summary report block: counters, status codes, min/max/mean/median/p95/p99 overall and per endpoint, artillery's request rate as the run metric http.request_rate, and the ensure plugin's checks: strict ones as thresholds (they can fail CI), optional ones as checks",
    drops:
      "the intermediate periods, p75/p90/p999 (not printed), the start date (only a time of day is printed), throughput (no span is printed; artillery's rate is a mean of window rates, not the run's)",
    resolution:
      "as report.json (it prints the same rounded summaries): percentiles one whole-ms response time or one ~2% sketch bucket, whichever is larger; min and max whole ms; the mean 0.1 ms",
    checkedOn: "real output",
    recipe: `artillery run script.yml | tee artillery-console.txt\ncurl --data-binary @artillery-console.txt $AUTH "$RUNS?label=baseline"`,
  },
  {
    id: "jmeter-csv",
    tool: "jmeter",
    title: "JMeter JTL results (CSV)",
    command: "jmeter -n -t plan.jmx -l results.jtl",
    upload: "body",
    keeps:
      "one endpoint per sample label: requests, failures (success=false), exact percentiles and an HDR histogram of elapsed over all samples, response codes, failure messages, throughput over the whole run's span, start time, peak threads; Transaction Controller samples as endpoints but not in the aggregate",
    drops:
      "sub-samples, bytes, latency and connect times, thread names; rows with SampleCount > 1 and formatted timestamps are refused (set jmeter.save.saveservice.timestamp_format=ms)",
    resolution:
      "whole ms: JMeter's elapsed (percentiles interpolated between samples are no finer); the mean over the samples full precision",
    checkedOn: "documented format",
    recipe: `gzip -c results.jtl | curl --data-binary @- -H "Content-Encoding: gzip" $AUTH "$RUNS?label=baseline"`,
  },
  {
    id: "jmeter-xml",
    tool: "jmeter",
    title: "JMeter JTL results (XML)",
    command: "jmeter -n -t plan.jmx -l results.jtl -Jjmeter.save.saveservice.output_format=xml",
    upload: "body",
    keeps:
      "as the CSV JTL, from top-level <httpSample>/<sample> elements (t, ts, s, lb, rc, rm, na) and the first failed assertion's message",
    drops:
      "as the CSV JTL; nested sub-samples (redirects, embedded resources), response data; a file cut off before </testResults> is refused",
    resolution: "as the CSV JTL: whole ms (t); the mean over the samples full precision",
    checkedOn: "documented format",
    recipe: `gzip -c results.jtl | curl --data-binary @- -H "Content-Encoding: gzip" $AUTH "$RUNS?label=baseline"`,
  },
  // ---- Microbenchmarks (docs/benchmarks.md) ----
  // go test -bench (go-bench.ts)
  {
    id: "go-bench-text",
    tool: "go",
    title: "go test -bench text (benchstat's input)",
    command: "go test -run '^$' -bench . -benchmem -count 5 ./... > bench.txt",
    upload: "body",
    keeps:
      "one benchmark per package (`pkg:`, the group) and name, sub-benchmarks included; each -count line as a sample of ns/op (exact percentiles and a histogram); B/op, allocs/op, MB/s and b.ReportMetric units (ns/lookup, hits/op…) as metrics under Go's unit, the mean over the lines, with the unit's direction; the testbed from goos/goarch/cpu; pkg, goos, goarch and a single GOMAXPROCS as attributes; notes for FAIL lines",
    drops:
      "iteration counts; the -N GOMAXPROCS suffix when a benchmark ran at one value (several, as with -cpu 1,2,4, stay apart under the names Go prints); other configuration lines, logs and the code's own output; Go's version (not in the file)",
    resolution:
      "samples as Go prints ns/op: whole ns from 1,000 ns, four significant digits below (0.1 ns from 100 ns, 0.01 ns from 10 ns…); the mean over the samples full precision",
    checkedOn: "real output",
    recipe: `curl --data-binary @bench.txt $AUTH "$RUNS?label=baseline&branch=main&commit=9f1c2e7"`,
  },
  {
    id: "go-bench-json",
    tool: "go",
    title: "go test -bench -json (test2json)",
    command: "go test -run '^$' -bench . -benchmem -count 5 -json ./... > bench.json",
    upload: "body",
    keeps:
      "as the text, read from the output events rejoined per package (result lines test2json split in two included), plus the first event's time as the start",
    drops: "as the text; the other events (run, pass, fail) and their times",
    resolution: "as the text: samples whole ns from 1,000 ns, four significant digits below; the mean full precision",
    checkedOn: "real output",
    recipe: `gzip -c bench.json | curl --data-binary @- -H "Content-Encoding: gzip" $AUTH "$RUNS?label=baseline"`,
  },
  // benchmark.js (benchmarkjs.ts)
  {
    id: "benchmarkjs-text",
    tool: "benchmarkjs",
    title: "benchmark.js String(bench) lines",
    command: "suite.on('cycle', (event) => console.log(String(event.target))): node bench.js > bench.txt",
    upload: "body",
    keeps:
      "each `name x 38,523 ops/sec ±1.36% (41 runs sampled)` line: ops/s as printed, the mean time per operation (1000 / ops/s), the runs sampled, and the standard deviation benchmark.js's ±rme implies (its 95% t table)",
    drops:
      "min, max, percentiles and the samples (not in the text); `Fastest is …`; a benchmark that errored (`name: Error …`) and other output",
    resolution:
      "the printed ops/s: whole ops/s from 100 ops/s, 0.01 below, so the mean moves by mean² / 1000 ms (mean² / 100,000 ms under 100 ops/s)",
    checkedOn: "real output",
    recipe: `curl --data-binary @bench.txt $AUTH "$RUNS?label=baseline"`,
  },

  // hyperfine (hyperfine.ts)
  {
    id: "hyperfine-json",
    tool: "hyperfine",
    title: "hyperfine --export-json",
    command: "hyperfine --export-json hyperfine.json 'gzip -c data.txt' 'sort data.txt'",
    upload: "body",
    keeps:
      "one benchmark per command (and per parameter value), named as hyperfine prints it (the command run, plus the parameters it did not use); every timed run as a sample (time per run: exact percentiles, histogram), failures (runs with a non-zero exit code), mean user and system CPU time (ms) as metrics, the parameters in the full name",
    drops:
      "the command template (not in the file; the name is the command as run), peak memory (memory_usage_byte of newer versions); the file states no hardware and no version",
    resolution: "full precision (seconds as float64 from a ns clock)",
    checkedOn: "real output",
    recipe: `curl --data-binary @hyperfine.json $AUTH "$RUNS?branch=main&commit=9f1c2e7"`,
  },
  {
    id: "hyperfine-csv",
    tool: "hyperfine",
    title: "hyperfine --export-csv",
    command: "hyperfine --export-csv hyperfine.csv 'gzip -c data.txt' 'sort data.txt'",
    upload: "body",
    keeps:
      "one benchmark per row, named as the JSON export names it: mean, standard deviation, median, min, max, mean user and system CPU time (ms) as metrics, the parameter_<name> columns in the full name",
    drops:
      "the runs (no samples, no run count, no exit codes: sample count and failures unknown), a single run's stddev (hyperfine writes 0 for it)",
    resolution: "full precision (seconds as float64, as the JSON)",
    checkedOn: "real output",
    recipe: `curl --data-binary @hyperfine.csv $AUTH "$RUNS?branch=main"`,
  },
  {
    id: "hyperfine-markdown",
    tool: "hyperfine",
    title: "hyperfine --export-markdown",
    command: "hyperfine --export-markdown hyperfine.md 'gzip -c data.txt' 'sort data.txt'",
    upload: "body",
    keeps: "one benchmark per row, named as the JSON export names it: mean ± standard deviation, min and max in the header's unit",
    drops: "the Relative column (ratios to the fastest), run count, exit codes, CPU times, parameters (not in the table)",
    resolution:
      "as printed in the unit of the first command's mean: 1 ms in s (3 decimals), 0.1 ms in ms, 0.1 µs in µs (1 decimal); by each value's own size, the unit hyperfine picks for a mean",
    checkedOn: "real output",
    recipe: `curl --data-binary @hyperfine.md $AUTH "$RUNS?branch=main"`,
  },
  {
    id: "hyperfine-text",
    tool: "hyperfine",
    title: "hyperfine console output",
    command: "hyperfine --style basic 'gzip -c data.txt' 'sort data.txt' > hyperfine.txt 2>&1",
    upload: "body",
    keeps:
      "one benchmark per `Benchmark N:` block, named as the JSON export names it: mean ± σ, min, max, the run count, mean user and system CPU time (ms) as metrics",
    drops:
      "the Summary (ratios to the fastest), warnings, the commands' own output, exit codes (failures unknown); a benchmark that stopped on an error is refused",
    resolution:
      "as printed in the unit of each benchmark's mean: 1 ms in s (3 decimals), 0.1 ms in ms, 0.1 µs in µs (1 decimal); by each value's own size, the unit hyperfine picks for a mean",
    checkedOn: "real output",
    recipe: `hyperfine --style basic 'gzip -c data.txt' 'sort data.txt' 2>&1 | tee hyperfine.txt\ncurl --data-binary @hyperfine.txt $AUTH "$RUNS?branch=main"`,
  },

  // vitest bench (vitest-bench.ts)
  {
    id: "vitest-bench",
    tool: "vitest",
    title: "vitest bench --outputJson",
    command: "vitest bench --run --outputJson vitest-bench.json",
    upload: "body",
    keeps:
      "one benchmark per bench(), grouped by its describe block as vitest names it with the file (`micro.bench.js > json > stringify 200 records`): mean, sd, min, max, median, p75, p99, p99.5, p99.9 and the sample count as written (vitest 4 writes no samples; a filled samples list is used as samples), hz as ops/s",
    drops: "rme, variance, sem, moe, rank, totalTime, the file's absolute path; the file states no hardware and no version",
    resolution: "full precision (float64 ms from performance.now())",
    checkedOn: "real output",
    recipe: `curl --data-binary @vitest-bench.json $AUTH "$RUNS?branch=main&commit=9f1c2e7"`,
  },
  {
    id: "vitest-bench-text",
    tool: "vitest",
    title: "vitest bench console output",
    command: "NO_COLOR=1 vitest bench --run > vitest-bench.txt 2>&1",
    upload: "body",
    keeps:
      "each group's table (`name hz min max mean p75 p99 p995 p999 rme samples`), named as the JSON report names them: mean, min, max, p75, p99, p99.5, p99.9, the sample count, hz as ops/s; vitest's version (RUN line)",
    drops: "median and sd (not printed), rme, the BENCH Summary (ratios), vitest's notices",
    resolution: "as printed: 4 decimals of ms (0.1 µs) below 100 ms, 2 decimals (10 µs) from 100 ms",
    checkedOn: "real output",
    recipe: `NO_COLOR=1 npx vitest bench --run 2>&1 | tee vitest-bench.txt\ncurl --data-binary @vitest-bench.txt $AUTH "$RUNS?branch=main"`,
  },

  // pytest-benchmark (pytest-benchmark.ts)
  {
    id: "pytest-benchmark",
    tool: "pytest-benchmark",
    title: "pytest-benchmark --benchmark-json",
    command: "pytest --benchmark-json=pytest-benchmark.json",
    upload: "body",
    keeps:
      "one benchmark per test as `group > name[params]`, every round (stats.data, time per iteration) as samples with exact percentiles, OPS, numeric extra_info as metrics (direction unknown), the testbed from machine_info (system, machine, CPU brand; never the host name), Python implementation and version as attributes, git commit, branch and dirty from commit_info, the plugin's version; a saved file without data keeps pytest-benchmark's min/max/mean/stddev/median",
    drops:
      "options, IQR/quartiles/outlier counts (percentiles come from the rounds), iterations per round, the host name and the rest of machine_info; `datetime` is when the file was written (the session's end), kept as the start",
    resolution: "full precision: perf_counter times as Python writes them",
    checkedOn: "real output",
    recipe: `pytest --benchmark-json=pytest-benchmark.json\ncurl --data-binary @pytest-benchmark.json $AUTH "$RUNS?label=baseline"`,
  },
  {
    id: "pytest-benchmark-text",
    tool: "pytest-benchmark",
    title: "pytest-benchmark console table",
    command: "pytest > pytest-benchmark.txt 2>&1",
    upload: "body",
    keeps:
      "one benchmark per table row as `group > name[params]` (the JSON's names): the columns printed (min, max, mean, stddev, median as p50), Rounds as the sample count, OPS scaled to ops/s, the plugin's and Python's versions, the session's duration",
    drops:
      "IQR, outliers and the ratios to the best, the rounds themselves (no percentiles beyond the median), the testbed (the console names only the OS: pass testbed= to match the JSON's); groups match the JSON's only with the default --benchmark-group-by=group",
    resolution:
      "4 decimals (`{:,.4f}`) in the group's time unit, which pytest-benchmark picks from the group's smallest value: at most 0.0001 of the value's own unit (s, ms, us, ns)",
    checkedOn: "real output",
    recipe: `pytest 2>&1 | tee pytest-benchmark.txt\ncurl --data-binary @pytest-benchmark.txt $AUTH "$RUNS?label=baseline"`,
  },

  // Google Benchmark (google-benchmark.ts)
  {
    id: "google-benchmark-json",
    tool: "google-benchmark",
    title: "Google Benchmark JSON",
    command: "./bench --benchmark_repetitions=5 --benchmark_out=gbench.json --benchmark_out_format=json",
    upload: "body",
    keeps:
      "one benchmark per instance (`BM_Sort/1000`), its repetitions (iteration rows) as samples of real time per operation, the mean CPU time as cpu_time (ms, lower), items_per_second and bytes_per_second (higher) and user counters (direction unknown) as their means, failed repetitions (SkipWithError), a Complexity() fit as run metrics (`BM_Sort_BigO` coefficient in ms per N-unit, `BM_Sort_RMS` in %), the date, the testbed from CPU count, MHz and caches (never the host name), library_build_type (a note when it is debug); with --benchmark_report_aggregates_only, the mean, median and stddev rows",
    drops:
      "aggregate rows where the repetitions are there (they are checked against them, not counted again), cv, statistics added with ComputeStatistics, iterations per repetition, labels, host name, executable, load average",
    resolution: "full precision: the doubles Google Benchmark computed",
    checkedOn: "real output",
    recipe: `curl --data-binary @gbench.json $AUTH "$RUNS?label=baseline"`,
  },
  {
    id: "google-benchmark-console",
    tool: "google-benchmark",
    title: "Google Benchmark console output",
    command: "./bench --benchmark_repetitions=5 > gbench.txt 2>&1",
    upload: "body",
    keeps:
      "as the JSON, to the printed precision: the same benchmark names, repetitions as samples, cpu_time, counters (`items_per_second=1.23G/s` read with its prefix), the Complexity() fit, the date, and the same testbed (`Run on (2 X 2596.14 MHz CPU s)` and the caches; stderr must be captured) and build type (the DEBUG warning)",
    drops:
      "as the JSON; counters declared kIs1024 other than bytes_per_second are read in powers of 1000 when printed with M, G… (the console does not say); without stderr, the date, testbed and build type",
    resolution:
      "each repetition as printed in its unit (`%.3f` below 1, `%.2f` below 10, `%.1f` below 100, then whole units: 1 ns steps from 100 ns in the default ns; a benchmark in µs or ms is coarser); the mean over the repetitions full precision (a printed _mean, read without its repetitions, keeps the print's step, which the rule cannot tell)",
    checkedOn: "real output",
    recipe: `./bench --benchmark_repetitions=5 2>&1 | tee gbench.txt\ncurl --data-binary @gbench.txt $AUTH "$RUNS?label=baseline"`,
  },

  // JMH, Criterion, BenchmarkDotNet: from their documentation (jmh.ts, criterion.ts, benchmarkdotnet.ts)
  {
    id: "jmh-json",
    tool: "jmh",
    title: "JMH -rf json result",
    command: "java -jar target/benchmarks.jar -rf json -rff jmh-result.json",
    upload: "body",
    keeps:
      "one benchmark per result, named benchmark:param=value,…: every iteration of every fork as a sample (avgt and ss: the time per op; thrpt: the reciprocal of each iteration's throughput, with ops/s = JMH's score), sample mode's histogram of single operations (count, histogram, deviation) with JMH's percentiles, gc.alloc.rate.norm as B/op and the other profiler metrics under their names and units, JMH's version, jdkVersion, vmName and vmVersion as attributes",
    drops:
      "JMH's 99.9% score error and confidence interval, warmup and measurement settings, the JVM path and arguments; the hardware (not in the file: no testbed unless the upload's testbed metadata names one)",
    resolution:
      "full precision (doubles as Java writes them); in sample mode JMH itself keeps each time in whole ns with 10 significant bits (0.1–0.2%)",
    checkedOn: "documented format",
    recipe: `curl --data-binary @jmh-result.json $AUTH "$RUNS?label=baseline&branch=main&commit=9f1c2e7"`,
  },
  {
    id: "criterion-json",
    unnamedTarget: true,
    tool: "criterion",
    title: "Criterion.rs target/criterion files",
    command: "cargo bench   (writes target/criterion/<benchmark>/new/benchmark.json, estimates.json, sample.json)",
    upload: "body or multipart",
    keeps:
      "one benchmark per folder, named by its benchmark.json's full_id (files are matched by the folder in their upload names, so send each as filename=<path>): sample.json's times per iteration (times[i] / iters[i] ns) as samples, estimates.json's slope as the metric slope (ns/iter), a declared throughput as B/s or elem/s; an estimates.json alone gives its mean, median and standard deviation, named with ?endpoint=",
    drops:
      "Criterion's bootstrap confidence intervals and standard errors, median_abs_dev, tukey.json, base/ and change/ (the previous run and Criterion's own comparison); Criterion's version and the hardware (not in the files); at most 50 files per upload (16 benchmarks with their three files)",
    resolution: "full precision (f64 ns as serde_json writes them)",
    checkedOn: "documented format",
    recipe: `cd target/criterion
files=(); while IFS= read -r f; do files+=(-F "file=@\\"$f\\";filename=\\"$f\\""); done < <(
  find . -path '*/new/*' \\( -name benchmark.json -o -name estimates.json -o -name sample.json \\) | sed 's|^\\./||')
curl "\${files[@]}" $AUTH "$RUNS?label=baseline"
# one benchmark's estimates.json alone, named:
curl --data-binary @fib/iterative/20/new/estimates.json $AUTH "$RUNS?label=baseline&endpoint=fib/iterative/20"`,
  },
  {
    id: "benchmarkdotnet-json",
    tool: "benchmarkdotnet",
    title: "BenchmarkDotNet full JSON report",
    command:
      "dotnet run -c Release -- --exporters fulljson   (writes BenchmarkDotNet.Artifacts/results/<Type>-report-full.json)",
    upload: "body or multipart",
    keeps:
      "one benchmark per case, named by FullName (Namespace.Type.Method(Param: value); a job name added when several jobs ran it): every Workload/Result measurement (Nanoseconds / Operations) as a sample, checked against the report's Statistics (or its statistics alone when the report has no measurements), BytesAllocatedPerOperation as B/op, Gen0/Gen1/Gen2 collections per 1000 operations, other diagnosers' metrics with their units and direction, BenchmarkDotNet's version, the processor as the testbed (\"AMD EPYC 7763, 1 CPU, 4 logical and 2 physical cores\"), RuntimeVersion and OsVersion as attributes; several classes' reports of one run as one multipart upload",
    drops:
      "pilot, warmup and overhead measurements, BenchmarkDotNet's outlier lists, quartiles and confidence interval (recomputed from the samples), HardwareIntrinsics, the .NET SDK version; benchmarks that failed (no results) are left out with a note",
    resolution: "full precision (doubles written round-trip by SimpleJson)",
    checkedOn: "documented format",
    recipe: `curl --data-binary @BenchmarkDotNet.Artifacts/results/Acme.Benchmarks.SortBenchmarks-report-full.json $AUTH \\
  "$RUNS?label=baseline"
# every class of one run, one run:
files=(); for f in BenchmarkDotNet.Artifacts/results/*-report-full.json; do files+=(-F "file=@$f"); done
curl "\${files[@]}" $AUTH "$RUNS?label=baseline"`,
  },

  // Valgrind instruction counts (valgrind.ts)
  {
    id: "cachegrind",
    tool: "valgrind",
    title: "Valgrind cachegrind output file",
    command: "valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=cachegrind.out.sort-1000 ./bench sort 1000",
    upload: "body or multipart",
    keeps:
      "one benchmark per file (one process), named by the cmd: line's arguments after the program (`sort 1000`), else the file's name, else the program: its Ir (instructions executed, from summary:, checked against the cost lines) as the metric instructions (lower is better, exact: a change is a change of what ran, judged without noise), every other event (with --cache-sim=yes: I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw) under its name, shown and never judged; several files (one per benchmark) as one multipart upload",
    drops:
      "the per-function and per-line costs, the simulated caches' sizes (desc:); no time (latency stays empty), no testbed (instruction counts do not depend on the machine's load, but do on the binary, compiler, libraries, CPU features, inputs and, for a whole process, its environment and arguments), no Valgrind version (not in the file)",
    resolution: "no latency statistic (instruction counts, exact whole numbers)",
    checkedOn: "real output",
    recipe: `for b in "sort 1000" join; do
  valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file="cachegrind.out.\${b// /-}" ./bench $b
done
files=(); for f in cachegrind.out.*; do files+=(-F "file=@$f"); done
curl "\${files[@]}" $AUTH "$RUNS?branch=main&commit=9f1c2e7"`,
  },
  {
    id: "callgrind",
    tool: "valgrind",
    title: "Valgrind callgrind output file",
    command:
      "valgrind --tool=callgrind --toggle-collect=bench_sort --callgrind-out-file=callgrind.out.sort-1000 ./bench sort 1000   (or one process with a CALLGRIND_DUMP_STATS_AT(\"name\") per benchmark)",
    upload: "body or multipart",
    keeps:
      "one benchmark per dump (part) named by its trigger (CALLGRIND_DUMP_STATS_AT(\"sort 1000\") → `sort 1000`; --dump-after=fn as written), from one file of parts (--combine-dumps=yes) or one file per dump; a process that did not dump (--toggle-collect, as iai-callgrind runs it) is one benchmark named as cachegrind's: its Ir (from totals:, checked against the cost lines) as the metric instructions (lower is better, exact), every other event (cache simulation, branches, --collect-systime's sysCount/sysTime) under its name, never judged; Valgrind's version (creator:)",
    drops:
      "the per-function, call and jump costs; the part after a process's last dump (Program termination: not a benchmark; a note when it counted anything); the header summary: (not the part's count after a dump); no time (latency stays empty), no testbed (as cachegrind)",
    resolution: "no latency statistic (instruction counts, exact whole numbers)",
    checkedOn: "real output",
    recipe: `# ./bench all runs each benchmark between CALLGRIND_START_INSTRUMENTATION and CALLGRIND_DUMP_STATS_AT("<name>")
valgrind --tool=callgrind --instr-atstart=no --combine-dumps=yes --callgrind-out-file=callgrind.out.all ./bench all
curl --data-binary @callgrind.out.all $AUTH "$RUNS?branch=main&commit=9f1c2e7"
# one process per benchmark (iai-callgrind's way):
curl -F a=@callgrind.out.sort-1000 -F b=@callgrind.out.join $AUTH "$RUNS?branch=main"`,
  },

  // ---- Any tool ----
  {
    id: "benchtrack",
    tool: "benchtrack",
    title: "Benchtrack JSON (benchtrack/v1)",
    command: "any tool: write the documented JSON (schema: /api/v1/schema/run.json)",
    upload: "body",
    keeps: "everything it states",
    drops: "nothing",
    resolution: "full precision: as the file states it",
    checkedOn: "real output",
    recipe: `curl --data-binary @run.json -H "Content-Type: application/json" $AUTH "$RUNS"`,
  },
];

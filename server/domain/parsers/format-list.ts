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

  // vitest bench (vitest-bench.ts)

  // pytest-benchmark (pytest-benchmark.ts)

  // Google Benchmark (google-benchmark.ts)

  // JMH, Criterion, BenchmarkDotNet: from their documentation (jmh.ts, criterion.ts, benchmarkdotnet.ts)

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

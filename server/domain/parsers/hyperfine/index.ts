/**
 * The hyperfine parsers' public face: `HYPERFINE_TOOL`, everything the format registries know of this tool's
 * formats (what the docs say of each, how it is read, its markers, its latency resolution), which tools.ts
 * lists. The files beside it are this tool's own.
 */
import { FULL_PRECISION, type ToolDescriptor } from "../tool-descriptor";
import { isHyperfineCsv, isHyperfineJson, parseHyperfineCsv, parseHyperfineJson } from "./hyperfine";
import { isHyperfineMarkdown, isHyperfineText, parseHyperfineMarkdown, parseHyperfineText } from "./hyperfine-text";

/**
 * hyperfine 1.15 prints a time in the unit of a mean (src/util/units.rs `format_duration_value`: µs below
 * 1 ms, ms below 1 s, else s; the console takes each benchmark's mean, the Markdown table the first
 * command's) with `{:.1}` in µs and ms and `{:.3}` in s. The rule goes by the value's own size, the unit
 * its mean would pick; a min or max on the other side of 1 ms or 1 s than its mean, or a table whose
 * first command is much faster or slower than the others, was printed in the mean's unit instead
 * (`--time-unit` forces one too). Checked on the fixtures: `138.9 ms` where the JSON has 0.13891718445 s.
 */
function hyperfinePrintStepMs(valueMs: number): number {
  if (valueMs < 1) return 0.0001;
  if (valueMs < 1_000) return 0.1;
  return 1;
}

/** hyperfine: its JSON, CSV and Markdown exports and its console output. */
export const HYPERFINE_TOOL: ToolDescriptor = {
  tool: "hyperfine",
  formats: [
    {
      info: {
        id: "hyperfine-json",
        extension: ".json",
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
      parser: { kind: "json", parse: parseHyperfineJson },
      markers: {
        json: isHyperfineJson,
      },
      // hyperfine's JSON and CSV write each time as a float64 of seconds (the CSV with Rust's shortest
      // round-trip digits: `0.13891718445000004`), measured on a ns clock.
      latency: { rule: FULL_PRECISION },
    },
    {
      info: {
        id: "hyperfine-csv",
        extension: ".csv",
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
      parser: { kind: "text", parse: parseHyperfineCsv },
      markers: {
        text: isHyperfineCsv,
      },
      latency: { rule: FULL_PRECISION },
    },
    {
      info: {
        id: "hyperfine-markdown",
        extension: ".md",
        title: "hyperfine --export-markdown",
        command: "hyperfine --export-markdown hyperfine.md 'gzip -c data.txt' 'sort data.txt'",
        upload: "body",
        keeps:
          "one benchmark per row, named as the JSON export names it: mean ± standard deviation, min and max in the header's unit",
        drops:
          "the Relative column (ratios to the fastest), run count, exit codes, CPU times, parameters (not in the table)",
        resolution:
          "as printed in the unit of the first command's mean: 1 ms in s (3 decimals), 0.1 ms in ms, 0.1 µs in µs (1 decimal); by each value's own size, the unit hyperfine picks for a mean",
        checkedOn: "real output",
        recipe: `curl --data-binary @hyperfine.md $AUTH "$RUNS?branch=main"`,
      },
      parser: { kind: "text", parse: parseHyperfineMarkdown },
      markers: {
        text: isHyperfineMarkdown,
      },
      latency: { rule: (_stat, valueMs) => hyperfinePrintStepMs(valueMs) },
    },
    {
      info: {
        id: "hyperfine-text",
        extension: ".txt",
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
      parser: { kind: "text", parse: parseHyperfineText },
      markers: {
        text: isHyperfineText,
      },
      latency: { rule: (_stat, valueMs) => hyperfinePrintStepMs(valueMs) },
    },
  ],
};

/**
 * Apache JMeter results (JTL) as CSV, the default of `jmeter -n -t plan.jmx -l results.jtl`: one row per
 * sample. What is made of the samples: `jmeter-tally.ts`.
 *
 * CSV: a header row names the columns (timeStamp, elapsed, label, responseCode, responseMessage,
 * threadName, dataType, success, failureMessage, bytes, sentBytes, grpThreads, allThreads, URL, Latency,
 * IdleTime, Connect…, in JMeter's fixed order, any subset); columns are found by name, so any order works.
 * Required: timeStamp, elapsed, label, success. `timeStamp` must be epoch ms (JMeter's default,
 * `jmeter.save.saveservice.timestamp_format=ms`); a formatted date is refused, as its time zone is unknown.
 * The delimiter is `,` (JMeter's default_delimiter), or tab, `;` or `|` when the header uses it.
 */
import { CsvError, parse } from "csv-parse/sync";
import type { ParsedRun } from "../../run";
import {
  epochMsOf,
  JtlTally,
  malformed,
  optionalWholeNumberOf,
  successOf,
  wholeNumberOf,
  type JtlSample,
} from "./jmeter-tally";

const REQUIRED_COLUMNS = ["timeStamp", "elapsed", "label", "success"] as const;
const DELIMITERS = [",", "\t", ";", "|"] as const;

export function parseJmeterCsv(text: string, source: string): ParsedRun {
  const firstLine =
    text
      .replace(/^\uFEFF/, "")
      .trimStart()
      .split(/\r?\n/, 1)[0] ?? "";
  const delimiter = DELIMITERS.find((d) => firstLine.split(d).map(unquote).includes("timeStamp")) ?? ",";
  const tally = new JtlTally();
  const state: { columns: Map<string, number> | null } = { columns: null };
  try {
    parse(text, {
      bom: true,
      delimiter,
      skip_empty_lines: true,
      on_record: (record, context) => {
        const where = `${source}: line ${context.lines}`;
        if (state.columns === null) state.columns = readHeader(record, where);
        else tally.add(sampleOfRow(record, state.columns, where), where);
        return null; // nothing is kept by csv-parse: rows are tallied as they come
      },
    });
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    const where = typeof error.lines === "number" ? `${source}: line ${error.lines}` : source;
    throw malformed(where, error.message);
  }
  if (state.columns === null) throw malformed(`${source}: line 1`, "empty file: no header row");
  return tally.toRun("jmeter-csv", source, state.columns.has("responseCode"));
}

function readHeader(record: readonly string[], where: string): Map<string, number> {
  const columns = new Map(record.map((name, index) => [unquote(name.trim()), index] as const));
  const missing = REQUIRED_COLUMNS.filter((column) => !columns.has(column));
  if (missing.length > 0) {
    const headerless = /^\d+$/.test(record[0]?.trim() ?? "")
      ? " (the file seems to have no header row: set jmeter.save.saveservice.print_field_names=true)"
      : "";
    throw malformed(where, `missing column${missing.length > 1 ? "s" : ""} ${missing.join(", ")}${headerless}`);
  }
  return columns;
}

function sampleOfRow(record: readonly string[], columns: ReadonlyMap<string, number>, where: string): JtlSample {
  const cell = (name: string): string => {
    const index = columns.get(name);
    return index === undefined ? "" : (record[index] ?? "");
  };
  return {
    label: cell("label"),
    timeStampMs: epochMsOf(cell("timeStamp"), "timeStamp", where),
    elapsedMs: wholeNumberOf(cell("elapsed"), "elapsed", where),
    success: successOf(cell("success"), "success", where),
    responseCode: cell("responseCode"),
    responseMessage: cell("responseMessage"),
    failureMessage: cell("failureMessage"),
    url: cell("URL") === "null" ? "" : cell("URL"), // JMeter writes "null" for samplers without a URL
    httpElement: false,
    allThreads: optionalWholeNumberOf(cell("allThreads"), "allThreads", where),
    sampleCount: optionalWholeNumberOf(cell("SampleCount"), "SampleCount", where),
    hostname: cell("Hostname"),
  };
}

function unquote(name: string): string {
  return name.replace(/^"(.*)"$/, "$1");
}

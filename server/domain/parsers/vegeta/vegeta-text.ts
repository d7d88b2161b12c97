/**
 * `vegeta report -type=text`: the JSON report's figures as printed, Go duration strings rounded to the unit
 * below the value's own (`11.996s` to the ms, `5.633ms` to the µs); no start time. The figures' meanings
 * and the run they make: `vegeta-report.ts`.
 */
import { emptyLatency, type LatencySummary, type ParsedRun } from "../../run";
import { buildVegetaRun, goDurationNsOf, malformed, NS_PER_MS, NS_PER_SECOND } from "./vegeta-report";

/** `Latencies     [min, mean, 50, 90, 95, 99, max]  1.388ms, 9.041ms, …`: label, column names, values. */
const BRACKET_LINE = /^(?<label>[A-Za-z]+(?: [A-Za-z]+)*)\s+\[(?<names>[^\]]*)\]\s*(?<values>.*)$/;
const ERROR_SET_LINE = /^Error Set:$/;
const NUMBER = /^\d+(?:\.\d+)?$/;
const STATUS_TOKEN = /^(\d+):(\d+)$/;
const KNOWN_LABELS = new Set(["Requests", "Duration", "Latencies", "Bytes In", "Bytes Out", "Success", "Status Codes"]);

/** One `Label [names] values` line: where it is, and each named column's raw value. */
interface TextLine {
  where: string;
  columns: Map<string, string>;
}

export function parseVegetaText(text: string, source: string): ParsedRun {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  const byLabel = new Map<string, TextLine>();
  const errors: string[] = [];
  const notes: string[] = [];
  let inErrorSet = false;
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    const where = `${source}: line ${index + 1}`;
    if (line === "") continue;
    if (inErrorSet) {
      errors.push(line);
      continue;
    }
    if (ERROR_SET_LINE.test(line)) {
      inErrorSet = true;
      continue;
    }
    const match = BRACKET_LINE.exec(line);
    const label = match?.groups?.label;
    if (!match?.groups || label === undefined)
      throw malformed(where, `not a line of vegeta's text report: "${line.slice(0, 80)}"`);
    if (byLabel.has(label)) throw malformed(where, `a second "${label}" line: send one report per file`);
    if (!KNOWN_LABELS.has(label)) {
      notes.push(`vegeta text report: the "${label}" line was not read.`);
      continue;
    }
    byLabel.set(label, {
      where,
      columns: columnsOf(label, match.groups.names ?? "", match.groups.values ?? "", where),
    });
  }

  const requestsLine = byLabel.get("Requests");
  const total = requestsLine?.columns.get("total");
  if (!requestsLine || total === undefined) {
    throw malformed(`${source}: line 1`, "no `Requests [total, …]` line: not a vegeta text report");
  }
  const requests = wholeNumberOf(total, requestsLine.where);
  const hasRequests = requests > 0;
  const duration = byLabel.get("Duration");
  const attackNs = durationColumn(duration, "attack");
  const waitNs = durationColumn(duration, "wait");
  const totalNs =
    durationColumn(duration, "total") ?? (attackNs !== null && waitNs !== null ? attackNs + waitNs : null);
  const attackRan = attackNs === null || attackNs > 0; // rate is undivided after a 0 s attack
  const success = byLabel.get("Success");
  const ratio = success?.columns.get("ratio");
  const statusLine = byLabel.get("Status Codes");
  const latency = latencyOf(byLabel.get("Latencies"), notes);
  return buildVegetaRun("vegeta-text", {
    requests,
    rate: attackRan ? decimalColumn(requestsLine, "rate") : null,
    successThroughput: attackRan ? decimalColumn(requestsLine, "throughput") : null,
    durationSeconds: hasRequests && totalNs !== null ? totalNs / NS_PER_SECOND : null,
    startedAt: null,
    latency: hasRequests ? latency : emptyLatency(),
    success: hasRequests && ratio !== undefined && success ? percentOf(ratio, success.where) : null,
    successTolerance: 0.00005 + 1e-12, // printed as a percentage with 2 decimals
    statusCodes: statusLine ? statusCodesOf(statusLine.columns.get("code:count") ?? "", statusLine.where) : null,
    statusCodesPath: statusLine?.where ?? source,
    errors,
    notes,
  });
}

/** Column name → raw value; `Status Codes [code:count]` keeps its space-separated tokens as one value. */
function columnsOf(label: string, names: string, values: string, where: string): Map<string, string> {
  const columns = names.split(",").map((name) => name.trim());
  if (label === "Status Codes") return new Map([[columns.join(","), values.trim()]]);
  const cells = values.trim() === "" ? [] : values.split(",").map((cell) => cell.trim());
  if (cells.length !== columns.length) {
    throw malformed(where, `${columns.length} columns [${names}] but ${cells.length} values`);
  }
  return new Map(columns.map((name, i) => [name, cells[i] ?? ""]));
}

function latencyOf(line: TextLine | undefined, notes: string[]): LatencySummary {
  const latency = emptyLatency();
  for (const [name, cell] of line?.columns ?? []) {
    const ms = () => goDurationNsOf(cell, line?.where ?? "") / NS_PER_MS;
    if (name === "min") latency.minMs = ms();
    else if (name === "mean") latency.meanMs = ms();
    else if (name === "max") latency.maxMs = ms();
    else if (NUMBER.test(name) && Number(name) <= 100) latency.percentiles[String(Number(name))] = ms();
    else notes.push(`vegeta text report: the "${name}" latency was not read.`);
  }
  return latency;
}

function durationColumn(line: TextLine | undefined, name: string): number | null {
  const cell = line?.columns.get(name);
  return line && cell !== undefined ? goDurationNsOf(cell, line.where) : null;
}

function decimalColumn(line: TextLine, name: string): number | null {
  const cell = line.columns.get(name);
  if (cell === undefined || cell === "NaN") return null;
  if (!NUMBER.test(cell)) throw malformed(line.where, `${name} "${cell}" is not a number`);
  return Number(cell);
}

function wholeNumberOf(cell: string, where: string): number {
  if (!/^\d+$/.test(cell)) throw malformed(where, `"${cell}" is not a whole number`);
  return Number(cell);
}

function percentOf(cell: string, where: string): number | null {
  if (cell === "NaN%") return null;
  const match = /^(\d+(?:\.\d+)?)%$/.exec(cell);
  if (match?.[1] === undefined) throw malformed(where, `"${cell}" is not a percentage`);
  return Number(match[1]) / 100;
}

function statusCodesOf(cell: string, where: string): Record<string, number> {
  const codes: Record<string, number> = {};
  for (const token of cell.split(/\s+/).filter((t) => t !== "")) {
    const match = STATUS_TOKEN.exec(token);
    if (match?.[1] === undefined || match[2] === undefined) throw malformed(where, `"${token}" is not code:count`);
    codes[match[1]] = (codes[match[1]] ?? 0) + Number(match[2]);
  }
  return codes;
}

/**
 * `go test -bench` output, as text (`go test -bench . -benchmem -count 5 > bench.txt`, what benchstat
 * reads) and as `go test -json` (test2json events, JSON Lines). The format itself, the benchmark names
 * and the metrics: `go-bench-lines.ts`. Neither file states Go's version (toolVersion stays null); the
 * testbed is `<goos>/<goarch> · <cpu>` as the configuration lines state them.
 */
import { InputError } from "../../input-error";
import type { ParsedRun } from "../../run";
import { GoBenchResults, type GoOutputStream } from "./go-bench-lines";
import { forEachLine } from "../text-lines";

/** How far into a text the markers look (a test log before the benchmarks can be long). */
const MARKER_WINDOW = 64 * 1024;
/** `goos: linux`, `goarch: amd64`, `pkg: example.com/x`: the configuration lines go test prints first. */
const GO_CONFIG_LINE = /^(?:goos|goarch|pkg): \S/m;
/** `BenchmarkX-2   \t    6672\t     84016 ns/op`: a name, whole-number iterations, a number and a unit. */
const GO_RESULT_LINE = /^Benchmark[^\s]*[ \t]+\d+[ \t]+\d[\d.e+-]*[ \t]+[^\s\d]/m;

/** Whether a text starts like `go test -bench` output (goos:/goarch:/pkg: header or a Benchmark line). */
export function isGoBenchText(start: string): boolean {
  const window = start.slice(0, MARKER_WINDOW);
  return GO_CONFIG_LINE.test(window) || GO_RESULT_LINE.test(window);
}

export function parseGoBenchText(text: string, source: string): ParsedRun {
  const results = new GoBenchResults();
  const stream = results.stream();
  forEachLine(text, (line, lineNumber) => stream.readLine(line, `${source}: line ${lineNumber}`));
  return results.finish("go-bench-text");
}

// ---- go test -json ----

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Whether a first line is a test2json event (`{"Time":…,"Action":…}`): `go test -json` output. */
export function isGoTest2JsonLine(firstLine: string): boolean {
  const trimmed = firstLine.trim();
  if (!trimmed.startsWith("{") || !trimmed.endsWith("}") || !trimmed.includes('"Action"')) return false;
  let event: unknown;
  try {
    event = JSON.parse(trimmed);
  } catch {
    return false;
  }
  if (!isRecord(event) || typeof event.Action !== "string") return false;
  const fields = ["Time", "Package", "Output"] as const;
  return (
    fields.some((field) => field in event) &&
    fields.every((field) => event[field] === undefined || typeof event[field] === "string")
  );
}

/** The output not yet ended by a line break, per package, and the event line where it began. */
interface PendingOutput {
  stream: GoOutputStream;
  text: string;
  startLine: number;
}

/**
 * test2json writes one event per line; `"Action":"output"` events carry the test binary's output in
 * order, per package. Their `Output` is concatenated per package and read as the text format, so a
 * result line that test2json split across two events (Go before 1.21 flushed the name before running
 * the benchmark: `"BenchmarkEncodeJSON-2   \t"` then `"    7057\t     81438 ns/op…"`; any Go splits
 * lines past 4 KB) is whole again. An error names the event line where the faulty output line began.
 * The first event's Time is the run's start. Other actions (run, pass, fail, bench) add nothing the
 * output does not say.
 */
export function parseGoBenchJson(text: string, source: string): ParsedRun {
  const results = new GoBenchResults();
  const pending = new Map<string, PendingOutput>();
  let firstTime: string | null = null;
  forEachLine(text, (line, lineNumber) => {
    if (line.trim() === "") return;
    const where = `${source}: line ${lineNumber}`;
    const event = readEvent(line, where);
    if (firstTime === null && typeof event.Time === "string") firstTime = event.Time;
    if (event.Action !== "output") return;
    const output = event.Output;
    if (typeof output !== "string") throw malformedEvent(where, 'an "output" event needs a string Output');
    const pkg = typeof event.Package === "string" ? event.Package : "";
    let buffer = pending.get(pkg);
    if (!buffer) {
      buffer = { stream: results.stream(), text: "", startLine: lineNumber };
      pending.set(pkg, buffer);
    }
    if (buffer.text === "") buffer.startLine = lineNumber;
    // Only the new output can hold the line break (a long line in many events stays linear).
    let newline = output.indexOf("\n");
    if (newline === -1) {
      buffer.text += output;
      return;
    }
    let rest = output;
    while (newline !== -1) {
      const complete = (buffer.text + rest.slice(0, newline)).replace(/\r$/, "");
      buffer.stream.readLine(complete, `${source}: line ${buffer.startLine}`);
      buffer.text = "";
      buffer.startLine = lineNumber;
      rest = rest.slice(newline + 1);
      newline = rest.indexOf("\n");
    }
    buffer.text = rest;
  });
  // Output left without a final line break (a stream cut short) is still a line.
  for (const buffer of pending.values()) {
    if (buffer.text !== "") buffer.stream.readLine(buffer.text, `${source}: line ${buffer.startLine}`);
  }
  const run = results.finish("go-bench-json");
  run.startedAt = startOf(firstTime);
  return run;
}

function readEvent(line: string, where: string): Record<string, unknown> {
  let event: unknown;
  try {
    event = JSON.parse(line);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw malformedEvent(where, `not a JSON object (${reason.slice(0, 120)})`);
  }
  if (!isRecord(event)) throw malformedEvent(where, "not a JSON object");
  if (typeof event.Action !== "string") throw malformedEvent(where, "a test2json event needs a string Action");
  if (event.Package !== undefined && typeof event.Package !== "string") {
    throw malformedEvent(where, "Package must be a string");
  }
  return event;
}

function malformedEvent(where: string, message: string): InputError {
  return new InputError("malformed", `Not valid go test -json output (${where}: ${message})`, [
    { path: where, message },
  ]);
}

/** test2json's RFC 3339 Time (ns digits) as an ISO 8601 instant, or null when it is not one. */
function startOf(time: string | null): string | null {
  if (time === null) return null;
  const ms = Date.parse(time);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}

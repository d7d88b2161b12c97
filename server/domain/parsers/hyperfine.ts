/** hyperfine --export-json, --export-csv and --export-markdown — being built (issue 24). */
import type { ParsedRun } from "../run";
import { InputError } from "../input-error";

function notBuilt(): never {
  throw new InputError("malformed", "This benchmark format is not built yet", [{ path: "body", message: "not built yet" }]);
}

export function isHyperfineJson(value: Record<string, unknown>): boolean {
  void value;
  return false;
}

export function isHyperfineCsv(start: string): boolean {
  void start;
  return false;
}

export function isHyperfineMarkdown(start: string): boolean {
  void start;
  return false;
}

export function parseHyperfineJson(document: unknown): ParsedRun {
  void document;
  return notBuilt();
}

export function parseHyperfineCsv(text: string, source: string): ParsedRun {
  void text; void source;
  return notBuilt();
}

export function parseHyperfineMarkdown(text: string, source: string): ParsedRun {
  void text; void source;
  return notBuilt();
}

/** The console output (stdout and stderr as captured by CI). */
export function isHyperfineText(start: string): boolean {
  void start;
  return false;
}

export function parseHyperfineText(text: string, source: string): ParsedRun {
  void text; void source;
  return notBuilt();
}

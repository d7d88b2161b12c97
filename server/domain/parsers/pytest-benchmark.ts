/** pytest-benchmark --benchmark-json — being built (issue 24). */
import type { ParsedRun } from "../run";
import { InputError } from "../input-error";

function notBuilt(): never {
  throw new InputError("malformed", "This benchmark format is not built yet", [{ path: "body", message: "not built yet" }]);
}

export function isPytestBenchmarkJson(value: Record<string, unknown>): boolean {
  void value;
  return false;
}

export function parsePytestBenchmark(document: unknown): ParsedRun {
  void document;
  return notBuilt();
}

/** The console output (stdout and stderr as captured by CI). */
export function isPytestBenchmarkText(start: string): boolean {
  void start;
  return false;
}

export function parsePytestBenchmarkText(text: string, source: string): ParsedRun {
  void text; void source;
  return notBuilt();
}

/** Google Benchmark JSON (--benchmark_out_format=json) and console table — being built (issue 24). */
import type { ParsedRun } from "../run";
import { InputError } from "../input-error";

function notBuilt(): never {
  throw new InputError("malformed", "This benchmark format is not built yet", [{ path: "body", message: "not built yet" }]);
}

export function isGoogleBenchmarkJson(value: Record<string, unknown>): boolean {
  void value;
  return false;
}

export function isGoogleBenchmarkConsole(start: string): boolean {
  void start;
  return false;
}

export function parseGoogleBenchmarkJson(document: unknown): ParsedRun {
  void document;
  return notBuilt();
}

export function parseGoogleBenchmarkConsole(text: string, source: string): ParsedRun {
  void text; void source;
  return notBuilt();
}

/** BenchmarkDotNet full JSON exporter — being built (issue 24). */
import type { ParsedRun } from "../run";
import { InputError } from "../input-error";

function notBuilt(): never {
  throw new InputError("malformed", "This benchmark format is not built yet", [{ path: "body", message: "not built yet" }]);
}

export function isBenchmarkDotNetJson(value: Record<string, unknown>): boolean {
  void value;
  return false;
}

export function parseBenchmarkDotNetJson(document: unknown): ParsedRun {
  void document;
  return notBuilt();
}

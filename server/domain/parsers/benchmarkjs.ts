/** benchmark.js String(bench) lines — being built (issue 24). */
import type { ParsedRun } from "../run";
import { InputError } from "../input-error";

function notBuilt(): never {
  throw new InputError("malformed", "This benchmark format is not built yet", [{ path: "body", message: "not built yet" }]);
}

/** Whether a text starts with benchmark.js result lines (`name x 1,234 ops/sec ±1.36% (41 runs sampled)`). */
export function isBenchmarkjsText(start: string): boolean {
  void start;
  return false;
}

export function parseBenchmarkjsText(text: string, source: string): ParsedRun {
  void text; void source;
  return notBuilt();
}

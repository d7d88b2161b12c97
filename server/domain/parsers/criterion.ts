/** Criterion.rs estimates.json (with benchmark.json) — being built (issue 24). */
import type { ParsedRun } from "../run";
import { InputError } from "../input-error";

function notBuilt(): never {
  throw new InputError("malformed", "This benchmark format is not built yet", [{ path: "body", message: "not built yet" }]);
}

export function isCriterionJson(value: Record<string, unknown>): boolean {
  void value;
  return false;
}

export function parseCriterionJson(document: unknown): ParsedRun {
  void document;
  return notBuilt();
}

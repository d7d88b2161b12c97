/** JMH -rf json — being built (issue 24). */
import type { ParsedRun } from "../run";
import { InputError } from "../input-error";

function notBuilt(): never {
  throw new InputError("malformed", "This benchmark format is not built yet", [{ path: "body", message: "not built yet" }]);
}

/** JMH writes a top-level array of `{benchmark, mode, primaryMetric, …}`. */
export function isJmhJson(value: unknown): boolean {
  void value;
  return false;
}

export function parseJmhJson(document: unknown): ParsedRun {
  void document;
  return notBuilt();
}

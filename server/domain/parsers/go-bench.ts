/** go test -bench text and go test -json (test2json) output — being built (issue 24). */
import type { ParsedRun } from "../run";
import { InputError } from "../input-error";

function notBuilt(): never {
  throw new InputError("malformed", "This benchmark format is not built yet", [{ path: "body", message: "not built yet" }]);
}

/** Whether a text starts like `go test -bench` output (goos:/goarch:/pkg:/cpu: header or a Benchmark line). */
export function isGoBenchText(start: string): boolean {
  void start;
  return false;
}

/** Whether a first line is a test2json event (`{"Time":…,"Action":…}`): `go test -json` output. */
export function isGoTest2JsonLine(firstLine: string): boolean {
  void firstLine;
  return false;
}

export function parseGoBenchText(text: string, source: string): ParsedRun {
  void text; void source;
  return notBuilt();
}

export function parseGoBenchJson(text: string, source: string): ParsedRun {
  void text; void source;
  return notBuilt();
}

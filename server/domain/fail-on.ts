import { InputError } from "./input-error";

/**
 * What fails a run's CI verdict: "regression" (a metric regressed against the baseline), "sla" (an SLA
 * check failed) and "thresholds" (a pass/fail criterion the tool itself evaluated failed, e.g. a k6
 * threshold). Given per upload as `fail_on=regression,sla,thresholds` or `fail_on=none`; absent, the
 * project's setting applies, with "thresholds" added: a tool's own failed threshold always counts
 * unless the upload says otherwise (a run without thresholds never fails on them).
 */
export const FAIL_ON_VALUES = ["regression", "sla", "thresholds"] as const;
export type FailOnValue = (typeof FAIL_ON_VALUES)[number];

function isFailOnValue(value: string): value is FailOnValue {
  return (FAIL_ON_VALUES as readonly string[]).includes(value);
}

/** `fail_on` as given: the values (`[]` for "none"), or null when absent; anything else names the parameter. */
export function parseFailOn(text: string | null): FailOnValue[] | null {
  if (text === null) return null;
  const values = text.split(",").map((value) => value.trim()).filter(Boolean);
  if (values.length === 1 && values[0] === "none") return [];
  const unknown = values.filter((value) => !isFailOnValue(value));
  if (unknown.length > 0) {
    const message = `fail_on takes regression, sla, thresholds or none; not ${unknown.join(", ")}`;
    throw new InputError("malformed", message, [{ path: "query.fail_on", message }]);
  }
  return [...new Set(values as FailOnValue[])];
}

/** The upload's `fail_on` when given, else the project's setting and the tool's thresholds. */
export function effectiveFailOn(given: FailOnValue[] | null, projectDefault: readonly string[]): FailOnValue[] {
  return given ?? [...new Set([...projectDefault.filter(isFailOnValue), "thresholds" as const])];
}

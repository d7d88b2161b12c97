/**
 * Long timelines made storable: a day of Locust's per-second history is 86,400 points per endpoint. A
 * timeline over MAX_TIMELINE_POINTS keeps one point in every k (the first, every k-th, and the last),
 * each exactly as the tool wrote it — never averaged — and the run's notes say so. k6 NDJSON's
 * per-second windows (k6/k6-timeline.ts) are thinned by the same rule as they are made.
 */
import type { EndpointResult, ParsedRun } from "../run";
import { endpointDisplayName } from "../run";
import { MAX_TIMELINE_POINTS } from "./validate";

/** One point in every `step` is kept (plus the last): at most maxPoints in all; 1 keeps every point. */
export function thinningStepOf(length: number, maxPoints = MAX_TIMELINE_POINTS): number {
  return length <= maxPoints ? 1 : Math.ceil(length / (maxPoints - 1));
}

/** Whether the point at `index` of `length` is kept when thinning by `step`. */
export function isKeptPoint(index: number, length: number, step: number): boolean {
  return index % step === 0 || index === length - 1;
}

/** What the run's notes say of one thinned timeline. */
export function thinnedTimelineNote(resultName: string, length: number, step: number, kept: number): string {
  return `${endpointDisplayName(resultName)}: the timeline had ${length} points; one in every ${step} is kept (${kept}).`;
}

export function thinTimelines(run: ParsedRun, maxPoints = MAX_TIMELINE_POINTS): ParsedRun {
  const notes: string[] = [];
  const thin = (result: EndpointResult): EndpointResult => {
    const points = result.timeline;
    if (!points || points.length <= maxPoints) return result;
    const step = thinningStepOf(points.length, maxPoints);
    const kept = points.filter((_, index) => isKeptPoint(index, points.length, step));
    notes.push(thinnedTimelineNote(result.name, points.length, step, kept.length));
    return { ...result, timeline: kept };
  };
  const endpoints = run.endpoints.map(thin);
  const aggregate = thin(run.aggregate);
  if (notes.length === 0) return run;
  return {
    ...run,
    endpoints,
    aggregate,
    notes: [
      ...run.notes,
      ...notes.slice(0, 3),
      ...(notes.length > 3 ? [`…and ${notes.length - 3} more timelines thinned the same way.`] : []),
    ],
  };
}

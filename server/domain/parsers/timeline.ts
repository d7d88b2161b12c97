/**
 * Long timelines made storable: a day of Locust's per-second history is 86,400 points per endpoint. A
 * timeline over MAX_TIMELINE_POINTS keeps one point in every k (the first, every k-th, and the last),
 * each exactly as the tool wrote it — never averaged — and the run's notes say so.
 */
import type { EndpointResult, ParsedRun } from "../run";
import { endpointDisplayName } from "../run";
import { MAX_TIMELINE_POINTS } from "./validate";

export function thinTimelines(run: ParsedRun, maxPoints = MAX_TIMELINE_POINTS): ParsedRun {
  const notes: string[] = [];
  const thin = (result: EndpointResult): EndpointResult => {
    const points = result.timeline;
    if (!points || points.length <= maxPoints) return result;
    // One in every `step`, plus the last: at most maxPoints in all.
    const step = Math.ceil(points.length / (maxPoints - 1));
    const kept = points.filter((_, index) => index % step === 0 || index === points.length - 1);
    notes.push(
      `${endpointDisplayName(result.name)}: the timeline had ${points.length} points; one in every ${step} is kept (${kept.length}).`,
    );
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

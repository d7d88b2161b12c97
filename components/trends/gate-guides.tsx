"use client";

import { branchName } from "@/server/domain/series/trend-branches";
import { MIN_NOISE_HISTORY, NOISE_HISTORY_RUNS } from "@/server/domain/stats/noise-band";
import type { ResultKinds } from "@/server/domain/result-kind";
import { branchColor } from "./branch-lines";
import { describeGateThreshold } from "./trend-chart-data";
import type { EndpointTrendsData } from "./trend-chart-data";
import { GATE_THRESHOLD_COLOR, NOISE_BAND_COLOR } from "./trend-lines";

/** The legend of several branches' lines: each branch's colour, name and how many of its runs are drawn. */
export function BranchLegend({
  branches,
  points,
}: {
  branches: readonly (string | null)[];
  points: readonly { branch: string | null }[];
}) {
  return (
    <ul className="text-text-muted mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs" aria-label="Branches" data-testid="trend-branch-legend">
      {branches.map((branch, index) => {
        const runs = points.filter((point) => point.branch === branch).length;
        return (
          <li key={branch ?? ""} className="flex items-center gap-1.5" data-testid="trend-branch-legend-item">
            <span aria-hidden className="inline-block h-[3px] w-3.5 rounded" style={{ background: branchColor(index) }} />
            <span className="text-text font-medium">{branchName(branch)}</span> ({runs} {runs === 1 ? "run" : "runs"} drawn)
          </li>
        );
      })}
    </ul>
  );
}

/** Under the default branch's chart: what its band and its gate threshold line are. */
export function GateGuides({
  defaultBranch,
  gate,
  kind,
}: {
  defaultBranch: string;
  gate: NonNullable<EndpointTrendsData["gate"]>;
  kind: ResultKinds;
}) {
  const threshold = gate.threshold;
  return (
    <ul className="text-text-muted mt-2 space-y-1 text-xs" aria-label="Band and gate threshold" data-testid="trend-gate-guides">
      {kind !== "benchmark" && (
        <li className="flex items-start gap-1.5" data-testid="trend-band-legend">
          <span aria-hidden className="mt-0.5 inline-block h-2.5 w-3.5 shrink-0 rounded-sm opacity-60" style={{ background: NOISE_BAND_COLOR }} />
          <span>
            {defaultBranch}&apos;s p95 noise band: median ± 3 × run-to-run noise of its last {NOISE_HISTORY_RUNS} runs since its
            last change (none until {MIN_NOISE_HISTORY} runs after it){gate.band.length === 0 ? ": not enough runs yet" : ""}
          </span>
        </li>
      )}
      <li className="flex items-start gap-1.5" data-testid="trend-gate-threshold">
        <span aria-hidden className="mt-1.5 inline-block h-0 w-3.5 shrink-0 border-t-2 border-dashed" style={{ borderColor: GATE_THRESHOLD_COLOR }} />
        <span>
          {threshold.metric === null
            ? `No gate threshold drawn: ${threshold.why}.`
            : describeGateThreshold(threshold, defaultBranch)}
          {threshold.how && <span className="block">Baseline: {threshold.how}.</span>}
        </span>
      </li>
    </ul>
  );
}

import Link from "next/link";
import { formatRunTime } from "@/components/history/run-time";
import { ChangeHeader, ChangeRow } from "@/components/changes/change-row";
import { Table } from "@/components/ui/table";
import type { RouterOutputs } from "@/server/api/root";
import { resultKindsOf, wordsOf } from "@/server/domain/result-kind";
import { pagePaths } from "@/server/domain/urls";
import { runName } from "./display";

export type IncidentRegression = RouterOutputs["incident"]["inbox"]["incidents"][number]["regressions"][number];

/**
 * An incident's regressions, the largest |Δ| first: each series' level before → after the step, Δ and
 * the change point's p-value, whether the series came back (the run detection saw it return at), and
 * links to the trend (the change point marked) and to the runs before vs after the step. Below `sm`
 * each is a card (change-row.tsx).
 */
export function IncidentRegressions({
  slug,
  regressions,
  label,
}: {
  slug: string;
  regressions: readonly IncidentRegression[];
  label: string;
}) {
  return (
    <Table label={label} stacked>
      <thead>
        <ChangeHeader noun={wordsOf(resultKindsOf(regressions.map((regression) => regression.endpoint?.protocol ?? null))).nounTitle} extra="Came back" />
      </thead>
      <tbody>
        {regressions.map((regression) => (
          <ChangeRow
            key={regression.id}
            change={regression}
            tone="bad"
            testId="incident-regression"
            className="target:bg-surface-muted"
            extra={{
              label: "came back",
              column: "returned",
              className: "text-xs",
              content: regression.returnRun ? (
                <span className="text-good">
                  came back at run{" "}
                  <Link href={pagePaths.run(slug, regression.returnRun.id)} className="text-accent hover:underline">
                    {runName(regression.returnRun)}
                  </Link>{" "}
                  <span className="text-text-muted">{formatRunTime(regression.returnRun.startedAt)}</span>
                </span>
              ) : (
                <span className="text-text-muted">not yet</span>
              ),
            }}
          />
        ))}
      </tbody>
    </Table>
  );
}

import Link from "next/link";
import { formatRunTime } from "@/components/history/run-time";
import { runName } from "@/components/incidents/display";
import { ChangeHeader, ChangeRow } from "@/components/changes/change-row";
import { Table } from "@/components/ui/table";
import type { RouterOutputs } from "@/server/api/root";
import { resultKindsOf, wordsOf } from "@/server/domain/result-kind";
import { pagePaths } from "@/server/domain/urls";

type Improvement = RouterOutputs["change"]["improvements"][number];

/**
 * Lasting improvements detection recorded (a step down in latency, up in throughput), newest first. They
 * open no incident and need no triage: they start a new regime for the gate's baseline by themselves.
 * Below `sm` each is a card (change-row.tsx): series and metric, Δ and p, before → after, where it began, links.
 */
export function ImprovementsTable({ slug, improvements }: { slug: string; improvements: readonly Improvement[] }) {
  const noun = wordsOf(resultKindsOf(improvements.map((row) => row.endpoint?.protocol ?? null))).nounTitle;
  return (
    <Table label="Improvements, newest first" stacked>
      <thead>
        <ChangeHeader noun={noun} extra="From run" />
      </thead>
      <tbody>
        {improvements.map((row) => (
          <ChangeRow
            key={row.id}
            change={row}
            tone="good"
            testId="improvement-row"
            extra={{
              label: "from run",
              column: "run",
              className: "max-sm:text-xs",
              content: (
                <>
                  <Link href={pagePaths.run(slug, row.firstRunId)} className="text-accent hover:underline">
                    {runName(row.firstRun)}
                  </Link>{" "}
                  <span className="text-text-muted text-xs">{formatRunTime(row.firstRun.startedAt)}</span>
                </>
              ),
            }}
          />
        ))}
      </tbody>
    </Table>
  );
}

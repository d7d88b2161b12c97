"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc-provider";
import { Badge } from "@/components/ui/badge";
import { Table, Td, Th } from "@/components/ui/table";
import type { RouterOutputs } from "@/server/api/root";
import { Problem } from "./problem";

type Activity = RouterOutputs["settings"]["activity"];

const JOB_TITLES: Record<Activity["jobs"][number]["name"], string> = {
  "detect-regressions": "change-point detection",
  "deliver-webhook": "webhook delivery",
  "redetect-project": "re-detection",
  "apply-retention": "raw-upload retention",
  "send-webhook-digests": "daily webhook digests",
  "refresh-rollups": "trend rollups",
  "refresh-statistics": "database statistics",
};

/** "2026-11-25 14:02:11 UTC": the page renders the same text on the server and in the browser. */
const time = (iso: string) => `${iso.slice(0, 19).replace("T", " ")} UTC`;

function stateTone(state: string): "good" | "bad" | "neutral" {
  if (state === "completed") return "good";
  if (state === "failed" || state === "cancelled") return "bad";
  return "neutral";
}

/** What a job's output says, in words: "opened 1", "delivered", "dropped 2 (1.2 KB)", or why it failed. */
function outcomeOf(job: Activity["jobs"][number]): string {
  const output = job.output ?? {};
  if (typeof output.message === "string") return output.message;
  return Object.entries(output)
    .filter(([, value]) => typeof value === "number" || typeof value === "boolean")
    .map(([key, value]) => `${key} ${String(value)}`)
    .join(", ");
}

/**
 * Background work of the project (server/services/projects/job-activity.ts): recent jobs with their state and
 * outcome, and how many failed for good (the webhook's deliveries are in its own panel). Shown to admins only.
 */
export function JobsPanel({ project }: { project: string }) {
  const trpc = useTRPC();
  const activity = useQuery(trpc.settings.activity.queryOptions({ project }, { staleTime: 0, retry: false }));
  if (activity.error) return <Problem error={activity.error} />;
  if (!activity.data) return <p className="text-text-muted text-sm">Loading…</p>;
  const { jobs, failedJobs } = activity.data;

  return (
    <div className="space-y-4" data-testid="jobs-panel">
      <p className="text-sm" role="status" data-testid="failed-jobs">
        {failedJobs === 0
          ? "No job has failed for good."
          : `${failedJobs} job${failedJobs === 1 ? "" : "s"} failed after every retry: see below and the server's log.`}
      </p>
      {jobs.length === 0 ? (
        <p className="text-text-muted text-sm">
          No background jobs yet: they start with the first upload on the default branch.
        </p>
      ) : (
        <Table label="Recent background jobs">
          <thead>
            <tr>
              <Th>Job</Th>
              <Th>State</Th>
              <Th numeric>Retries</Th>
              <Th>Queued</Th>
              <Th>Outcome</Th>
            </tr>
          </thead>
          <tbody>
            {jobs.map((job) => (
              <tr key={job.id} data-testid="job-row">
                <Td>{JOB_TITLES[job.name]}</Td>
                <Td>
                  <Badge tone={stateTone(job.state)}>{job.state}</Badge>
                </Td>
                <Td numeric>
                  {job.retryCount} of {job.retryLimit}
                </Td>
                <Td className="text-text-muted">{time(job.createdOn)}</Td>
                <Td wrap className="text-text-muted min-w-[12rem]">
                  {outcomeOf(job)}
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </div>
  );
}

import type { PrismaClient } from "../../generated/prisma/client";
import { jobQueueFor, type JobName } from "../platform";
import type { Principal } from "../access";
import { requireProjectAccess } from "../access";
import { requireProject } from "./projects";

/**
 * What the settings page shows of a project's background work: its recent jobs (detection, webhook
 * deliveries, re-detection, retention) with their state and what they did or why they failed, and how
 * many jobs failed for good (the webhook delivery log is the webhook's: webhook-settings.ts). Jobs are read from pg-boss's tables (the
 * live ones and the archive, where completed jobs move after 12 hours).
 */

/** How many recent jobs the page lists. */
export const ACTIVITY_LENGTH = 20;

export interface JobRow {
  id: string;
  name: JobName;
  state: "created" | "retry" | "active" | "completed" | "cancelled" | "failed";
  retryCount: number;
  retryLimit: number;
  createdOn: string;
  completedOn: string | null;
  /** What the job reported (`{opened: 1}`), or why it failed (`{message}`, without a stack or URL secrets). */
  output: Record<string, number | boolean | string> | null;
}

export async function getJobActivity(db: PrismaClient, principal: Principal, slug: string) {
  const project = await requireProject(db, slug);
  // Its maintainers only: a failure's message may name a webhook's target.
  await requireProjectAccess(db, principal, project, "manage");
  const schema = (await jobQueueFor(db)).schema;
  const jobs = await db.$queryRawUnsafe<
    {
      id: string;
      name: JobName;
      state: JobRow["state"];
      retry_count: number;
      retry_limit: number;
      created_on: Date;
      completed_on: Date | null;
      output: unknown;
    }[]
  >(
    `SELECT id::text, name, state::text, retry_count, retry_limit, created_on, completed_on, output FROM (
       SELECT id, name, state, retry_count, retry_limit, created_on, completed_on, output, data FROM ${schema}.job
       UNION ALL
       SELECT id, name, state, retry_count, retry_limit, created_on, completed_on, output, data FROM ${schema}.archive
     ) jobs
     WHERE data->>'projectId' = $1
     ORDER BY created_on DESC, id DESC
     LIMIT ${ACTIVITY_LENGTH}`,
    project.id,
  );
  const [failed] = await db.$queryRawUnsafe<{ n: number }[]>(
    `SELECT count(*)::int AS n FROM (
       SELECT data FROM ${schema}.job WHERE state = 'failed' UNION ALL SELECT data FROM ${schema}.archive WHERE state = 'failed'
     ) failed WHERE data->>'projectId' = $1`,
    project.id,
  );
  return {
    failedJobs: failed?.n ?? 0,
    jobs: jobs.map((job): JobRow => ({
      id: job.id,
      name: job.name,
      state: job.state,
      retryCount: job.retry_count,
      retryLimit: job.retry_limit,
      createdOn: job.created_on.toISOString(),
      completedOn: job.completed_on?.toISOString() ?? null,
      output: summarizeOutput(job.output),
    })),
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** How much of a failed job's message the page shows. */
const MESSAGE_LENGTH = 300;

/**
 * A job's output as the page may show it: a failure's message alone (pg-boss also keeps the stack,
 * which names server paths), with any URL cut to its origin (a webhook URL may hold a secret); a
 * report's counts and short words.
 */
function summarizeOutput(output: unknown): JobRow["output"] {
  if (!isRecord(output)) return null;
  if (typeof output.message === "string") {
    const message = output.message.replace(/\bhttps?:\/\/[^\s"'<>]*[^\s"'<>.,:;)\]]/gi, (url) => originOf(url));
    return { message: message.length > MESSAGE_LENGTH ? `${message.slice(0, MESSAGE_LENGTH)}…` : message };
  }
  const summary: Record<string, number | boolean | string> = {};
  for (const [key, value] of Object.entries(output)) {
    if (typeof value === "number" || typeof value === "boolean" || (typeof value === "string" && value.length <= 80)) summary[key] = value;
  }
  return summary;
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return "(invalid URL)";
  }
}

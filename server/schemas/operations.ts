import { z } from "zod";

/**
 * The operations endpoints' answers (GET /api/health, GET /api/ready): what a load balancer, Kubernetes
 * or a person at a terminal reads. docs/operations.md, "Probes and metrics".
 */
export const livenessSchema = z
  .object({
    status: z.literal("ok").describe("The process answers."),
    version: z.string().describe("Benchtrack's version."),
    uptimeSeconds: z.number().int().nonnegative().describe("Seconds since the process started."),
  })
  .describe("Liveness: the process answers (the database is not asked).");

export const readinessCheckSchema = z.object({
  ok: z.boolean().describe("Whether this check passes."),
  status: z.string().describe('A short state: "ok", "unreachable", "pending", "running", "disabled", "shutting_down"…'),
  reason: z.string().optional().describe("Why it fails (or a note): never a connection string, a stack or data."),
});

export const readinessSchema = z
  .object({
    status: z.enum(["ready", "not_ready"]).describe("ready (200) when every check passes, else not_ready (503)."),
    checks: z.object({
      database: readinessCheckSchema.describe("The database answers SELECT 1 within 2 s."),
      migrations: readinessCheckSchema.describe("Every migration this version ships is applied."),
      jobs: readinessCheckSchema.describe("The job workers run in this process, or are disabled (BENCHTRACK_WORKERS=false, still ready)."),
      shutdown: readinessCheckSchema.describe("The process is not shutting down."),
    }),
  })
  .describe("Readiness: may this process be sent requests?");

export type LivenessAnswer = z.infer<typeof livenessSchema>;
export type ReadinessAnswer = z.infer<typeof readinessSchema>;

/**
 * The serving process's lifecycle: whether it is stopping (draining after SIGTERM or SIGINT: a readiness
 * check answers 503 then, so a load balancer sends it nothing new), and the steps a stop takes besides
 * the HTTP server's own drain, which the production server runs (scripts/serve.ts; docs/operations.md,
 * "Stopping, restarting and upgrading"):
 * - "drain" steps run beside the HTTP drain, from the signal on: the job workers take no new job and
 *   let the running one finish (server/jobs/worker.ts);
 * - "close" steps run once the drain is over: the database's pools and the embedded database
 *   (instrumentation.ts), after the last request and job that could use them.
 * Each step is given the deadline (epoch ms) and answers what it had to cut off to meet it (empty: it
 * finished everything), for the log and the exit code.
 *
 * State on globalThis: Next bundles this module into several chunks (instrumentation, routes), and the
 * serving script loads it too; all of them must see one state.
 */
export type ShutdownPhase = "drain" | "close";

export interface ShutdownStep {
  /** Named in the log beside what it cut off: "job workers", "database". */
  name: string;
  phase: ShutdownPhase;
  /** Finishes its work by `deadline` (epoch ms) at the latest; answers what it cut off. */
  run(deadline: number): Promise<readonly string[]>;
}

interface LifecycleState {
  stoppingSince: number | null;
  steps: ShutdownStep[];
}

const globalForLifecycle = globalThis as unknown as { benchtrackLifecycle?: LifecycleState };
const state = (globalForLifecycle.benchtrackLifecycle ??= { stoppingSince: null, steps: [] });

/** True from the stop signal on: new work should be refused or sent elsewhere (/api/ready answers 503). */
export function isShuttingDown(): boolean {
  return state.stoppingSince !== null;
}

/** Marks the process as stopping (the production server does, on SIGTERM or SIGINT). */
export function beginShutdown(): void {
  state.stoppingSince ??= Date.now();
}

/** Registers a step of the stop (once per process: the job workers, the database). */
export function onShutdown(step: ShutdownStep): void {
  state.steps.push(step);
}

/** What a phase did: the steps it ran, and what they cut off (each line prefixed with its step's name). */
export interface ShutdownPhaseReport {
  ran: string[];
  cutOff: string[];
}

/** Runs one phase's steps side by side. A step that throws counts as cut off (its error is the line): a stop never throws. */
export async function runShutdownPhase(phase: ShutdownPhase, deadline: number): Promise<ShutdownPhaseReport> {
  const steps = state.steps.filter((step) => step.phase === phase);
  const cutOff = await Promise.all(
    steps.map(async (step) => {
      try {
        return (await step.run(deadline)).map((what) => `${step.name}: ${what}`);
      } catch (error) {
        return [`${step.name}: failed: ${error instanceof Error ? error.message : String(error)}`];
      }
    }),
  );
  return { ran: steps.map((step) => step.name), cutOff: cutOff.flat() };
}

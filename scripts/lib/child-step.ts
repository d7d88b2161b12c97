import { spawn } from "node:child_process";
import { constants as osConstants } from "node:os";

/**
 * A step before the server (`npm start`'s build and migrations, `npm run build`) in a child process,
 * awaited: a stop meanwhile (SIGINT, SIGTERM to this process) is passed on to it, so none is left running
 * behind a stopped start. Resolves to the step's exit code (exitCodeOf); after a stop, to 128 + the
 * signal's number even when the step still ended well, so the caller stops there too.
 */
export function runStep(command: string, args: readonly string[], cwd: string): Promise<number> {
  const child = spawn(command, args, { cwd, stdio: "inherit" });
  let stoppedBy: NodeJS.Signals | null = null;
  const passOn = (signal: NodeJS.Signals) => {
    stoppedBy ??= signal;
    child.kill(signal);
  };
  const signals = ["SIGINT", "SIGTERM"] as const;
  for (const signal of signals) process.on(signal, passOn);
  return new Promise((resolve) => {
    const done = (code: number) => {
      for (const signal of signals) process.off(signal, passOn);
      resolve(code === 0 && stoppedBy !== null ? exitCodeOf(null, stoppedBy) : code);
    };
    child.once("error", () => done(1));
    child.once("exit", (code, signal) => done(exitCodeOf(code, signal)));
  });
}

/** A child's exit as this process's exit code: its own, or 128 + n for a child killed by signal n. */
export function exitCodeOf(code: number | null, signal: NodeJS.Signals | null): number {
  return code ?? 128 + (signal ? osConstants.signals[signal] : 0);
}

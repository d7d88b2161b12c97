import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { exitCodeOf } from "./child-step";

/** Whether a process of this id still runs (signal 0 only asks). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * A process that runs one step (runStep) of a child that would run for a minute and prints its id:
 * as npm start runs its build.
 */
function startStepRunner() {
  const childStep = path.join(import.meta.dirname, "child-step.ts");
  const grandchild = "console.log('step ' + process.pid); setTimeout(() => {}, 60_000)";
  const script = `const { runStep } = await import(${JSON.stringify(childStep)}); process.exit(await runStep(process.execPath, ["-e", ${JSON.stringify(grandchild)}], process.cwd()));`;
  const runner = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  const stepPid = new Promise<number>((resolve, reject) => {
    let output = "";
    runner.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const found = /step (\d+)/.exec(output);
      if (found) resolve(Number(found[1]));
    });
    runner.once("exit", () => reject(new Error(`the runner exited before its step started: ${output}`)));
  });
  const exited = new Promise<number | null>((resolve) => runner.once("exit", (code, signal) => resolve(code ?? exitCodeOf(code, signal))));
  return { runner, stepPid, exited };
}

describe("runStep", () => {
  it("passes a SIGTERM on to its step: the step ends with it, and the runner exits 128 + 15", async () => {
    const { runner, stepPid, exited } = startStepRunner();
    const pid = await stepPid;
    expect(isRunning(pid)).toBe(true);
    runner.kill("SIGTERM");
    expect(await exited).toBe(143);
    // The runner exits once its step has: nothing is left behind.
    expect(isRunning(pid)).toBe(false);
  }, 30_000);

  it("answers a child's exit as an exit code: its own, or 128 + the signal's number", () => {
    expect(exitCodeOf(0, null)).toBe(0);
    expect(exitCodeOf(3, null)).toBe(3);
    expect(exitCodeOf(null, "SIGTERM")).toBe(143);
    expect(exitCodeOf(null, "SIGINT")).toBe(130);
  });
});

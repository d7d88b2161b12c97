// The processes of benchtrack-ab.mjs: the benchmark command and the prepare step, each in a process group
// of its own, so that what it leaves running is stopped (the command's when it returns, the prepare step's
// servers when the job ends) and Ctrl-C or a cancelled job stops all of it. Plain Node 18+, no
// dependencies. See docs/ci.md, "A/B jobs".
import { spawn } from "node:child_process";

/** The end of a command's stderr kept for the error message, in characters. */
const STDERR_TAIL_CHARS = 2_000;

/** Process groups still running: the job's end (or a signal) stops them. */
const groups = new Set();

/** SIGTERM to a process group; gone already is fine. */
function stopGroup(pid, signal = "SIGTERM") {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: nothing left in the group.
  }
}

/** Stops every process group the job started that may still run (its prepare steps' servers). */
export function stopAll(signal = "SIGTERM") {
  for (const pid of groups) stopGroup(pid, signal);
  groups.clear();
}

/** How long the pipes of a command that returned may stay open (what it left running), before SIGKILL. */
const DRAIN_MS = 5_000;

/**
 * Runs a command, `argv` (no shell) or `shell` (a command line for sh; cmd on Windows), in `cwd` with
 * `env`, stdin closed, in a process group of its own.
 *
 * The benchmark command (default): its stderr goes to the log as it comes, the last 2,000 characters kept;
 * its stdout too, or captured when `captureStdout` (the result is what it prints); what it leaves running
 * is stopped when it returns. The prepare step (`keepGroup`): its output goes to the log as it is (a server
 * it starts in the background keeps writing there), and what it started keeps running until stopAll().
 *
 * @returns {Promise<{ code: number | null, signal: string | null, error: string | null, stdout: Buffer | null, stderrTail: string, seconds: number }>}
 */
export function runCommand({ argv, shell, cwd, env, captureStdout = false, keepGroup = false }) {
  const started = process.hrtime.bigint();
  const stdio = keepGroup ? ["ignore", "inherit", "inherit"] : ["ignore", captureStdout ? "pipe" : "inherit", "pipe"];
  const options = { cwd, env, detached: true, stdio };
  const child = shell ? spawn(shell, { ...options, shell: true }) : spawn(argv[0], argv.slice(1), options);
  if (child.pid) groups.add(child.pid);
  const stdout = [];
  let stderrTail = "";
  child.stdout?.on("data", (chunk) => stdout.push(chunk));
  child.stderr?.on("data", (chunk) => {
    process.stderr.write(chunk);
    stderrTail = (stderrTail + chunk.toString("utf8")).slice(-STDERR_TAIL_CHARS);
  });
  return new Promise((resolve) => {
    let error = null;
    let exited = { code: null, signal: null };
    let drain = null;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(drain);
      if (child.pid && !keepGroup) groups.delete(child.pid);
      resolve({
        ...exited,
        error,
        stdout: captureStdout ? Buffer.concat(stdout) : null,
        stderrTail,
        seconds: Number(process.hrtime.bigint() - started) / 1e9,
      });
    };
    child.on("error", (cause) => {
      // Not started (ENOENT, EACCES): no exit or close event follows a failed spawn.
      error = cause.code === "ENOENT" ? `${argv?.[0] ?? "sh"}: command not found` : String(cause.message ?? cause);
      if (!child.pid) finish();
    });
    child.on("exit", (code, signal) => {
      exited = { code, signal };
      if (keepGroup) return;
      // What the command left running holds its pipes open: stop it, and stop waiting for it after a while.
      stopGroup(child.pid);
      drain = setTimeout(() => {
        stopGroup(child.pid, "SIGKILL");
        child.stdout?.destroy();
        child.stderr?.destroy();
        finish();
      }, DRAIN_MS);
    });
    child.on("close", finish);
  });
}

import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { E2E_SERVERS } from "../playwright.config";
import type { E2eServer } from "../playwright.config";
import { ROOT, buildApp, isBuildCurrent } from "../scripts/lib/build";

/**
 * Starts playwright.config.ts's servers side by side, each in a shell of its own process group, and
 * waits until each answers at its URL (as Playwright's webServer does: any status below 404); the
 * function it returns stops them with SIGKILL to each group, as Playwright's webServer does (their data
 * folders are thrown away at the next start: a drain would keep nothing, and took 10 s), returning once
 * every group is gone. If this process ends first (Ctrl-C during the setup, a crash), the groups get
 * SIGKILL on its way out. The build is made first when the sources changed since the last one, so no
 * two `npm start` build at once. Their output is shown line by line, after the name.
 */
export default async function startE2eServers(): Promise<() => Promise<void>> {
  if (!isBuildCurrent()) buildApp();
  const taken = await Promise.all(E2E_SERVERS.map(async (server) => ((await answers(server.url)) ? server : null)));
  for (const server of taken) {
    if (server) throw new Error(`${server.name}: ${server.url} already answers: another server holds its port`);
  }
  const started = E2E_SERVERS.map(startServer);
  const killLeftovers = () => {
    for (const server of started) signalGroup(server.child, "SIGKILL");
  };
  process.once("exit", killLeftovers);
  const stopAll = async () => {
    await Promise.all(started.map((server) => stopServer(server.child)));
    process.off("exit", killLeftovers);
  };
  try {
    await Promise.all(started.map((server) => server.ready));
  } catch (error) {
    await stopAll();
    throw error;
  }
  return stopAll;
}

interface StartedServer {
  child: ChildProcess;
  ready: Promise<void>;
}

function startServer(server: E2eServer): StartedServer {
  const child: ChildProcess = spawn(server.command, {
    cwd: ROOT,
    shell: true,
    detached: true,
    env: { ...process.env, ...server.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const show = (chunk: Buffer) => {
    output += chunk.toString();
    const lines = output.split("\n");
    output = lines.pop() ?? "";
    for (const line of lines) console.log(`[${server.name}] ${line}`);
  };
  child.stdout?.on("data", show);
  child.stderr?.on("data", show);
  let exitCode: number | null | undefined;
  child.once("exit", (code) => (exitCode = code));

  const ready = (async () => {
    const deadline = Date.now() + server.timeoutMs;
    while (!(await answers(server.url))) {
      if (exitCode !== undefined) throw new Error(`${server.name}: \`${server.command}\` exited (${exitCode}) before ${server.url} answered`);
      if (Date.now() > deadline) throw new Error(`${server.name}: ${server.url} did not answer within ${server.timeoutMs / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  return { child, ready };
}

/** Sends `signal` to the server's whole process group (the shell, npm, the server); false once the group is gone. */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-child.pid!, signal);
    return true;
  } catch {
    return false;
  }
}

/** SIGKILL to the group; resolves once no process of it is left, or after 2 s (a zombie nobody reaps still counts as one). */
async function stopServer(child: ChildProcess): Promise<void> {
  if (!signalGroup(child, "SIGKILL")) return;
  const deadline = Date.now() + 2_000;
  while (signalGroup(child, 0) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
}

/** Whether `url` answers as a server that is up would: any status below 404 (redirects not followed). */
async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { redirect: "manual", signal: AbortSignal.timeout(5_000) });
    await response.body?.cancel();
    return response.status < 404;
  } catch {
    return false;
  }
}

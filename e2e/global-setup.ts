import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { E2E_SERVERS } from "../playwright.config";
import type { E2eServer } from "../playwright.config";
import { ROOT, buildApp, isBuildCurrent } from "../scripts/lib/build";

/**
 * Starts playwright.config.ts's servers side by side, each in a shell of its own process group, and
 * waits until each answers at its URL (as Playwright's webServer does: any status below 404); the
 * function it returns stops them (SIGTERM to the group, SIGKILL 10 s later). The build is made first
 * when the sources changed since the last one, so no two `npm start` build at once. Their output is
 * shown line by line, after the server's name.
 */
export default async function startE2eServers(): Promise<() => Promise<void>> {
  if (!isBuildCurrent()) buildApp();
  const started: StartedServer[] = [];
  const stopAll = async () => {
    await Promise.all(started.map((server) => server.stop()));
  };
  try {
    await Promise.all(
      E2E_SERVERS.map(async (server) => {
        if (await answers(server.url)) throw new Error(`${server.name}: ${server.url} already answers: another server holds its port`);
        const running = startServer(server);
        started.push(running);
        await running.ready;
      }),
    );
  } catch (error) {
    await stopAll();
    throw error;
  }
  return stopAll;
}

interface StartedServer {
  ready: Promise<void>;
  stop: () => Promise<void>;
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
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));

  const ready = (async () => {
    const deadline = Date.now() + server.timeoutMs;
    let exitCode: number | null | undefined;
    void exited.then((code) => (exitCode = code));
    while (!(await answers(server.url))) {
      if (exitCode !== undefined) throw new Error(`${server.name}: \`${server.command}\` exited (${exitCode}) before ${server.url} answered`);
      if (Date.now() > deadline) throw new Error(`${server.name}: ${server.url} did not answer within ${server.timeoutMs / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const signal = (name: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, name);
      } catch {
        // gone already
      }
    };
    signal("SIGTERM");
    const timer = setTimeout(() => signal("SIGKILL"), 10_000);
    await exited;
    clearTimeout(timer);
  };
  return { ready, stop };
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

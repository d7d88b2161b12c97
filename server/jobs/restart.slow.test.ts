import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openDatabase, type DatabaseTarget } from "../db";
import { openMigratedDatabase, testDatabaseTargets, uniqueSlug } from "../testing/databases";
import { jobQueueOf } from "../services/platform/job-queue";

// A worker killed (SIGKILL: no goodbye) while a webhook delivery waits for its retry loses nothing: the
// job is a row, and the next worker to start delivers it. Real processes, a real receiver, the real queue.

const WORKER = path.join(import.meta.dirname, "fixtures", "worker-process.ts");

/** A receiver on 127.0.0.1 answering 500 to the first request and 200 after, recording what it got. */
async function startReceiver() {
  const statuses: number[] = [];
  const server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      const status = statuses.length === 0 ? 500 : 200;
      statuses.push(status);
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    statuses,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function startWorker(target: DatabaseTarget, jobSchema: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", WORKER], {
    env: {
      ...process.env,
      BENCHTRACK_TEST_TARGET: JSON.stringify(target),
      BENCHTRACK_TEST_JOB_SCHEMA: jobSchema,
      BENCHTRACK_WEBHOOK_ALLOWED_HOSTS: "127.0.0.1",
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("worker ready")) resolve(child);
    });
    child.on("exit", (code) => reject(new Error(`worker exited early (${code})`)));
  });
}

async function until(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) =>
    child.exitCode !== null || child.signalCode !== null ? resolve() : child.on("exit", () => resolve()),
  );
}

/** The embedded database as a folder (a process must be able to reopen it), or the test's PostgreSQL. */
function durableTargets(): { name: string; target: DatabaseTarget }[] {
  return testDatabaseTargets().map(({ name, target }) =>
    target.kind === "memory"
      ? {
          name: "embedded (PGlite, on disk)",
          target: { kind: "embedded", dataDir: mkdtempSync(path.join(os.tmpdir(), "benchtrack-jobs-")) },
        }
      : { name, target },
  );
}

describe.each(durableTargets())("a webhook retry across a killed worker on $name", ({ target }) => {
  it("is delivered by the next worker: once, after the failed attempt, with both attempts recorded", async () => {
    const receiver = await startReceiver();
    // The delivery and its job, written before any worker runs (as detection would have).
    const database = await openMigratedDatabase(target);
    const project = await database.prisma.project.create({
      data: { slug: uniqueSlug("restart"), name: "restart", webhookUrl: receiver.url },
      select: { id: true },
    });
    const delivery = await database.prisma.webhookDelivery.create({
      data: { projectId: project.id, event: "incident.opened", format: "json", url: receiver.url, payload: { text: "p95 +30%" } },
      select: { id: true },
    });
    const queue = await jobQueueOf(database);
    // The queue's own policy retries after 10–20 s; this job asks for 1–2 s so the test is quick.
    const jobSchema = queue.schema;
    const jobId = await queue.boss.send(
      "deliver-webhook",
      { deliveryId: delivery.id, projectId: project.id },
      { retryDelay: 1, retryBackoff: true, retryLimit: 8 },
    );
    await database.close();

    const first = await startWorker(target, jobSchema);
    await until(() => receiver.statuses.length === 1, 20_000); // the first attempt: 500, so a retry is due
    await new Promise((resolve) => setTimeout(resolve, 300)); // the failure is recorded…
    first.kill("SIGKILL"); // …and the worker dies before the retry
    await exited(first);
    expect(receiver.statuses).toEqual([500]);

    const second = await startWorker(target, jobSchema);
    await until(() => receiver.statuses.length === 2, 30_000);
    second.kill("SIGTERM");
    await exited(second);
    await receiver.close();
    expect(receiver.statuses).toEqual([500, 200]);

    const reopened = await openDatabase(target, { jobSchema });
    const stored = await reopened.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } });
    expect(stored).toMatchObject({ attempts: 2, lastStatus: 200, lastError: null });
    expect(stored.deliveredAt).toBeInstanceOf(Date);
    const job = await (await jobQueueOf(reopened)).boss.getJobById("deliver-webhook", jobId!, { includeArchive: true });
    expect(job).toMatchObject({ state: "completed", retryCount: 1 });
    await reopened.close();
    // Migrating a folder-backed PGlite and starting two worker processes: about 30 s alone, minutes on a loaded machine.
  }, 240_000);
});

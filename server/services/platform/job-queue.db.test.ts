import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db";
import { openMigratedDatabase, testDatabaseTargets, uniqueSlug } from "../../testing/databases";
import { JOB_LEASE_SECONDS, jobQueueFor, jobQueueOf } from "./job-queue";

describe.each(testDatabaseTargets())("the job queue on $name", ({ target }) => {
  let database: Database;

  beforeAll(async () => {
    database = await openMigratedDatabase(target);
  });

  afterAll(async () => {
    await database.close();
  });

  it("starts on the database (its own schema) and gives every queue its retry policy", async () => {
    const queue = await jobQueueOf(database);
    expect(await jobQueueFor(database.prisma)).toBe(queue);
    const detect = await queue.boss.getQueue("detect-regressions");
    expect(detect).toMatchObject({ policy: "short", retryLimit: 5, retryBackoff: true });
    const tables = await database.prisma.$queryRawUnsafe<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = '${queue.schema}'`,
    );
    expect(tables[0]?.n).toBeGreaterThan(0);
  });

  it("enqueues inside a transaction: the job exists exactly when the transaction commits", async () => {
    const queue = await jobQueueOf(database);
    const projectId = uniqueSlug("tx");
    const committed = await database.prisma.$transaction(async (tx) => queue.send("redetect-project", { projectId }, { tx }));
    expect(committed).not.toBeNull();
    const job = await queue.boss.getJobById<{ projectId: string }>("redetect-project", committed!);
    expect(job?.data).toEqual({ projectId });

    const rolledBack = uniqueSlug("rollback");
    await expect(
      database.prisma.$transaction(async (tx) => {
        await queue.send("redetect-project", { projectId: rolledBack }, { tx });
        throw new Error("the upload failed after all");
      }),
    ).rejects.toThrow("the upload failed after all");
    const jobs = await database.prisma.$queryRawUnsafe<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM ${queue.schema}.job WHERE name = 'redetect-project' AND data->>'projectId' = $1`,
      rolledBack,
    );
    expect(jobs[0]?.n).toBe(0);
  });

  it("renews a running job's lease (the heartbeat): a minute from now however long it ran; not once it is done", async () => {
    const queue = await jobQueueOf(database);
    const projectId = uniqueSlug("lease");
    const id = (await queue.send("apply-retention", { projectId }))!;
    const [job] = await queue.boss.fetch("apply-retention", { batchSize: 1 });
    expect(job?.id).toBe(id);
    const leaseEnd = async () =>
      (
        await database.prisma.$queryRawUnsafe<{ seconds: number }[]>(
          `SELECT extract(epoch FROM started_on + expire_in - now())::float8 AS seconds FROM ${queue.schema}.job WHERE id = $1::uuid`,
          id,
        )
      )[0]!.seconds;
    expect(await leaseEnd()).toBeGreaterThan(JOB_LEASE_SECONDS - 10);
    // It has run for 10 minutes: without news from its worker, its lease would have run out long ago.
    await database.prisma.$executeRawUnsafe(`UPDATE ${queue.schema}.job SET started_on = now() - interval '10 minutes' WHERE id = $1::uuid`, id);
    expect(await leaseEnd()).toBeLessThan(0);
    expect(await queue.renewLease("apply-retention", id)).toBe(true);
    expect(await leaseEnd()).toBeGreaterThan(JOB_LEASE_SECONDS - 10);
    expect(await leaseEnd()).toBeLessThanOrEqual(JOB_LEASE_SECONDS);

    await queue.boss.complete("apply-retention", id, {});
    expect(await queue.renewLease("apply-retention", id)).toBe(false);
  });
});

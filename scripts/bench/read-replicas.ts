/**
 * The scale part's read-replica step (PostgreSQL, DATABASE_READ_URL): 32 readers on two app servers
 * reading from one streaming replica while uploads continue (scale.ts holds the other scale steps).
 */
import pg from "pg";
import { describeFailure, runConcurrently, send, summarizeLatencies } from "./http";
import type { TimedResponse } from "./http";
import type { ScenarioResult } from "./ingest";
import { ms, upload } from "./scale";
import type { BenchServer } from "./server";

/** What the read-replica measurement is handed: the replica's URL for the bench database, and the primary's. */
export interface ReadReplicaSetup {
  primaryUrl: string;
  replicaUrl: string;
}

/**
 * Read replicas (DATABASE_READ_URL): two app servers (`servers`) whose reads go to one streaming
 * replica, `readers` clients reading at once (pages and API reads, in turn, alternating servers) while
 * `uploads` uploads continue (2 in flight, alternating servers). Each upload's run is read at once
 * after its 201, on the other server, with no WAL position: read-your-writes by the retry on the
 * primary. Figures: reads/s and their latency, the replica's lag (the time until it has replayed what
 * the primary had written, sampled every 100 ms), uploads lost (answered 201 but not stored, once the
 * replica has caught up: counted on both), the uploader's reads that were not 200, and the
 * transactions the replica served the app servers (pg_stat_database on the replica, less the probe's
 * own queries: proof that the reads went there).
 */
export async function measureReadReplicas(
  servers: readonly BenchServer[],
  token: string,
  body: string,
  setup: ReadReplicaSetup,
  { uploads = 100, readers = 32 } = {},
) {
  const project = "bench-read-replicas";
  const seed = await runConcurrently(10, 2, (index) => upload(servers[index % servers.length]!, token, project, body, { label: "nightly", branch: "main", round: String(index) }));
  const seedIds = seed.map((response) => (response.body as { id?: string }).id).filter((id): id is string => typeof id === "string");
  if (seedIds.length !== seed.length) throw new Error(`seeding failed: ${seed.map(describeFailure).join(", ")}`);
  const paths = [
    `/api/v1/projects/${project}/runs?limit=20`,
    `/api/v1/projects/${project}`,
    `/api/v1/projects/${project}/runs/${seedIds[0]}`,
    `/projects/${project}`,
    `/projects/${project}/runs/${seedIds[1]}`,
  ];
  const primary = new pg.Client({ connectionString: setup.primaryUrl });
  const replica = new pg.Client({ connectionString: setup.replicaUrl });
  await Promise.all([primary.connect(), replica.connect()]);
  try {
    const replicaTransactions = async () =>
      Number((await replica.query<{ n: string }>("SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = current_database()")).rows[0]?.n ?? 0);
    const replicaTransactionsBefore = await replicaTransactions();
    let uploading = true;
    const readLatencies: number[] = [];
    const readFailures: Record<string, number> = {};
    const lagsMs: number[] = [];
    const started = performance.now();
    const uploader = runConcurrently(uploads, 2, async (index) => {
      const uploaded = await upload(servers[index % servers.length]!, token, project, body, { label: "nightly", branch: "main", round: String(100 + index) });
      const id = (uploaded.body as { id?: string }).id;
      const readBack = id ? await send(`${servers[(index + 1) % servers.length]!.baseUrl}/api/v1/projects/${project}/runs/${id}`).catch(() => null) : null;
      return { uploaded, readBack };
    }).finally(() => {
      uploading = false;
    });
    const reader = async (readerIndex: number) => {
      for (let step = readerIndex; uploading; step++) {
        const server = servers[step % servers.length]!;
        const response = await send(`${server.baseUrl}${paths[step % paths.length]}`).catch((error: unknown) => String(error).slice(0, 80));
        const failure = typeof response === "string" ? response : response.status === 200 ? null : describeFailure(response);
        if (failure === null) readLatencies.push((response as TimedResponse).ms);
        else readFailures[failure] = (readFailures[failure] ?? 0) + 1;
      }
    };
    // The probe's own queries on the replica, left out of the transactions it served for the app.
    let probeQueries = 0;
    const lagProbe = async () => {
      while (uploading) {
        const probeStarted = performance.now();
        const position = (await primary.query<{ position: string }>("SELECT pg_current_wal_lsn()::text AS position")).rows[0]!.position;
        for (;;) {
          probeQueries++;
          const replayed = (await replica.query<{ replayed: boolean }>("SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS replayed", [position])).rows[0]!.replayed;
          if (replayed) break;
          await new Promise((resolve) => setTimeout(resolve, 1));
        }
        lagsMs.push(performance.now() - probeStarted);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    const [outcomes] = await Promise.all([uploader, lagProbe(), ...Array.from({ length: readers }, (_, index) => reader(index))]);
    const wallSeconds = (performance.now() - started) / 1000;
    const replicaTransactionsServed = (await replicaTransactions()) - replicaTransactionsBefore - probeQueries - 1;

    const answered = outcomes.filter((outcome) => outcome.uploaded.status === 201).map((outcome) => (outcome.uploaded.body as { id: string }).id);
    const notSeenAtOnce = outcomes.filter((outcome) => outcome.readBack?.status !== 200).length;
    // Once the replica has replayed everything: each answered id stored, on the primary and on the replica.
    const position = (await primary.query<{ position: string }>("SELECT pg_current_wal_lsn()::text AS position")).rows[0]!.position;
    const catchUpDeadline = Date.now() + 60_000;
    while (!(await replica.query<{ replayed: boolean }>("SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS replayed", [position])).rows[0]!.replayed) {
      if (Date.now() > catchUpDeadline) throw new Error("the replica did not catch up within 60 s");
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const countStored = async (client: pg.Client) =>
      Number((await client.query<{ n: string }>("SELECT count(*) AS n FROM runs WHERE id = ANY($1::text[])", [answered])).rows[0]?.n ?? 0);
    const [storedOnPrimary, storedOnReplica] = await Promise.all([countStored(primary), countStored(replica)]);
    const latency = summarizeLatencies(readLatencies);
    const readsFailed = Object.values(readFailures).reduce((sum, n) => sum + n, 0);
    const sortedLags = [...lagsMs].sort((a, b) => a - b);
    const figures = {
      appServers: servers.length,
      readers,
      uploads,
      uploadsAnswered201: answered.length,
      wallSeconds,
      readsPerSecond: readLatencies.length / wallSeconds,
      reads: readLatencies.length,
      readsFailed,
      readFailures,
      readLatency: latency,
      replicaLagMs: { samples: sortedLags.length, p50: sortedLags[Math.floor(sortedLags.length / 2)] ?? null, max: sortedLags.at(-1) ?? null },
      replicaTransactionsServed,
      uploadsLost: answered.length - Math.min(storedOnPrimary, storedOnReplica),
      storedOnPrimary,
      storedOnReplica,
      uploaderReadsNot200: notSeenAtOnce,
    };
    const isCorrect = answered.length === uploads && figures.uploadsLost === 0 && notSeenAtOnce === 0 && readsFailed === 0 && replicaTransactionsServed > 0;
    return {
      figures: { ...figures, isCorrect },
      lines: [
        {
          test: `read replica: ${servers.length} app servers, ${readers} readers (pages + API) while ${uploads} uploads continue: reads`,
          figure: `${figures.readsPerSecond.toFixed(0)} reads/s, p50 ${ms(latency?.p50Ms ?? null)}, p95 ${ms(latency?.p95Ms ?? null)}; ${readsFailed} failed; ${replicaTransactionsServed} transactions served by the replica`,
        },
        {
          test: `read replica: replica lag while uploading (${sortedLags.length} samples)`,
          figure: `p50 ${ms(figures.replicaLagMs.p50)}, max ${ms(figures.replicaLagMs.max)}`,
        },
        {
          test: `read replica: uploads lost; uploader's GET of its run right after the 201 (other app server)`,
          figure: `${figures.uploadsLost} lost (${storedOnPrimary} on the primary, ${storedOnReplica} on the replica, of ${answered.length} answered); ${notSeenAtOnce} not 200 → ${isCorrect ? "OK" : "WRONG"}`,
        },
      ],
    } satisfies ScenarioResult<typeof figures & { isCorrect: boolean }>;
  } finally {
    await Promise.all([primary.end(), replica.end()]);
  }
}

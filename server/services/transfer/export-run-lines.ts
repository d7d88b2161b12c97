import type { Prisma } from "../../generated/prisma/client";
import type { LineSink } from "./export-rows";
import { afterId, asJson, batches, iso, optionalFloat, optionalIso, ROW_BATCH, storedFloat } from "./export-rows";

/**
 * Writing a project's run-level lines (export-lines.ts, writeProjectLines): its runs, each with its results
 * and metrics and followed by its raw upload files, then its annotations, baseline pins, incidents and
 * detected changes, read in batches through the keyset cursor of export-rows.ts.
 */

type Tx = Prisma.TransactionClient;

/** Runs per batch: each with its results (a 10,000-benchmark suite is 10,000 rows), so kept small. */
const RUN_BATCH = 50;

/** Every run-level line of one project, in the file's order; returns how many runs were written. */
export async function writeRunLines(tx: Tx, projectId: string, sink: LineSink): Promise<number> {
  let runCount = 0;
  for await (const runs of batches(
    (id: string | undefined) =>
      tx.run.findMany({
        where: { projectId, ...afterId(id) },
        orderBy: { id: "asc" },
        take: RUN_BATCH,
        include: { results: { orderBy: { id: "asc" } }, metrics: { orderBy: { id: "asc" } } },
      }),
    RUN_BATCH,
  )) {
    for (const run of runs) {
      runCount++;
      await sink({
        kind: "run",
        id: run.id,
        tool: run.tool,
        toolVersion: run.toolVersion,
        format: run.format,
        protocol: run.protocol,
        parserVersion: run.parserVersion,
        label: run.label,
        round: run.round,
        startedAt: iso(run.startedAt),
        durationSeconds: optionalFloat(run.durationSeconds),
        uploadedAt: iso(run.uploadedAt),
        gitCommit: run.gitCommit,
        gitBranch: run.gitBranch,
        pullRequest: run.pullRequest,
        gitBaseCommit: run.gitBaseCommit,
        gitBaseBranch: run.gitBaseBranch,
        gitBaseTime: optionalIso(run.gitBaseTime),
        buildUrl: run.buildUrl,
        hostName: run.hostName,
        hostCpus: run.hostCpus,
        hostMemoryGb: optionalFloat(run.hostMemoryGb),
        testbed: run.testbed,
        appVersion: run.appVersion,
        config: asJson(run.config),
        attributes: asJson(run.attributes),
        thresholds: asJson(run.thresholds),
        checks: asJson(run.checks),
        notes: asJson(run.notes),
        idempotencyKey: run.idempotencyKey,
        bodySha256: run.bodySha256,
        isDemo: run.isDemo,
        outcome: run.outcome,
        outcomeReasons: run.outcomeReasons,
        regressed: run.regressed,
        gateChanges: asJson(run.gateChanges),
        abJob: run.abJob,
        abSide: run.abSide,
        abPair: run.abPair,
        budget: run.budget === null ? null : asJson(run.budget),
        results: run.results.map((result) => ({
          endpointId: result.endpointId,
          requests: result.requests,
          failures: result.failures,
          errorRate: optionalFloat(result.errorRate),
          throughput: optionalFloat(result.throughput),
          minMs: optionalFloat(result.minMs),
          meanMs: optionalFloat(result.meanMs),
          p50Ms: optionalFloat(result.p50Ms),
          p90Ms: optionalFloat(result.p90Ms),
          p95Ms: optionalFloat(result.p95Ms),
          p99Ms: optionalFloat(result.p99Ms),
          maxMs: optionalFloat(result.maxMs),
          stdDevMs: optionalFloat(result.stdDevMs),
          percentiles: asJson(result.percentiles),
          histogram: result.histogram === null ? null : asJson(result.histogram),
          timeline: result.timeline === null ? null : asJson(result.timeline),
          statusCodes: result.statusCodes === null ? null : asJson(result.statusCodes),
          errors: result.errors === null ? null : asJson(result.errors),
        })),
        metrics: run.metrics.map((metric) => ({
          endpointId: metric.endpointId,
          key: metric.key,
          value: storedFloat(metric.value),
          unit: metric.unit,
          exact: metric.exact,
          better: metric.better,
        })),
      });
      // The raw files one at a time (each may be tens of MB): base64 without PostgreSQL's line breaks.
      const files = await tx.$queryRaw<{ position: number }[]>`SELECT position FROM raw_uploads WHERE run_id = ${run.id} ORDER BY position`;
      for (const { position } of files) {
        const [raw] = await tx.$queryRaw<
          { fileName: string | null; contentType: string | null; sizeBytes: number; createdAt: Date; gzipBase64: string | null }[]
        >`SELECT file_name AS "fileName", content_type AS "contentType", size_bytes AS "sizeBytes", created_at AS "createdAt",
                 translate(encode(gzip_data, 'base64'), E'\n', '') AS "gzipBase64"
            FROM raw_uploads WHERE run_id = ${run.id} AND position = ${position}`;
        if (!raw) continue;
        await sink({ kind: "raw", runId: run.id, position, ...raw, createdAt: iso(raw.createdAt) });
      }
    }
  }

  for await (const annotations of batches(
    (id: string | undefined) => tx.annotation.findMany({ where: { projectId, ...afterId(id) }, orderBy: { id: "asc" }, take: ROW_BATCH }),
    ROW_BATCH,
  )) {
    for (const annotation of annotations) {
      await sink({
        kind: "annotation",
        id: annotation.id,
        runId: annotation.runId,
        at: iso(annotation.at),
        annotationKind: annotation.kind,
        text: annotation.text,
        createdAt: iso(annotation.createdAt),
      });
    }
  }

  for (const pin of await tx.baselinePin.findMany({ where: { projectId }, orderBy: { id: "asc" } })) {
    await sink({
      kind: "pin",
      id: pin.id,
      forLabel: pin.forLabel,
      runIds: pin.runIds,
      baselineLabel: pin.baselineLabel,
      createdAt: iso(pin.createdAt),
    });
  }

  for await (const incidents of batches(
    (id: string | undefined) =>
      tx.incident.findMany({ where: { projectId, ...afterId(id) }, orderBy: { id: "asc" }, take: ROW_BATCH, include: { events: { orderBy: [{ at: "asc" }, { id: "asc" }] } } }),
    ROW_BATCH,
  )) {
    for (const incident of incidents) {
      await sink({
        kind: "incident",
        id: incident.id,
        number: incident.number,
        firstRunId: incident.firstRunId,
        state: incident.state,
        note: incident.note,
        links: incident.links,
        detectorVersion: incident.detectorVersion,
        stateChangedAt: optionalIso(incident.stateChangedAt),
        stateChangedBy: incident.stateChangedBy,
        closedAt: optionalIso(incident.closedAt),
        createdAt: iso(incident.createdAt),
        events: incident.events.map((event) => ({
          id: event.id,
          at: iso(event.at),
          by: event.by,
          fromState: event.fromState,
          toState: event.toState,
          note: event.note,
        })),
      });
    }
  }

  for await (const changes of batches(
    (id: string | undefined) => tx.change.findMany({ where: { projectId, ...afterId(id) }, orderBy: { id: "asc" }, take: ROW_BATCH }),
    ROW_BATCH,
  )) {
    for (const change of changes) {
      await sink({
        kind: "change",
        id: change.id,
        endpointId: change.endpointId,
        metric: change.metric,
        changeKind: change.kind,
        firstRunId: change.firstRunId,
        beforeValue: storedFloat(change.beforeValue),
        afterValue: storedFloat(change.afterValue),
        deltaPct: storedFloat(change.deltaPct),
        pValue: optionalFloat(change.pValue),
        detectorVersion: change.detectorVersion,
        status: change.status,
        statusChangedAt: optionalIso(change.statusChangedAt),
        statusChangedBy: change.statusChangedBy,
        incidentId: change.incidentId,
        returnRunId: change.returnRunId,
        createdAt: iso(change.createdAt),
      });
    }
  }
  return runCount;
}

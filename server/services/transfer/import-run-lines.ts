import type { ParsedTransferLine } from "../../schemas/transfer";
import type { ImportContext } from "./import-context";
import { date, float, json, jsonOrNull, lineError, optionalDate, optionalFloat } from "./parse-line";

/**
 * Writing the run-level lines of an import (import-lines.ts reads the file and writes its project-level
 * lines): each run with its results and metrics, its raw upload files, and what refers to runs
 * (annotations, baseline pins, incidents, detected changes), all onto the current project.
 */

/** The 400 naming the first of `runIds` that is neither in the file before this line nor in the project. */
async function requireRuns(context: ImportContext, projectId: string, runIds: readonly string[], path: string): Promise<void> {
  if (runIds.length === 0) return;
  const found = await context.tx.run.findMany({ where: { id: { in: [...runIds] }, projectId }, select: { id: true } });
  const have = new Set(found.map((run) => run.id));
  const missing = runIds.findIndex((id) => !have.has(id));
  if (missing !== -1) throw lineError("bad_request", context.lineNumber, runIds.length === 1 ? path : `${path}[${missing}]`, `run "${runIds[missing]}" is neither in the file before this line nor in the project`);
}

export async function applyRunLine(context: ImportContext, line: ParsedTransferLine<"run">): Promise<void> {
  const projectId = context.requireProject("run");
  context.counts.runs.inFile++;
  const { kind: _kind, results, metrics, ...run } = line;
  const existing = await context.tx.run.findUnique({ where: { id: run.id }, select: { projectId: true, bodySha256: true } });
  if (existing) {
    if (existing.projectId !== projectId) throw lineError("conflict", context.lineNumber, "id", `run "${run.id}" belongs to another project of this server`);
    if (existing.bodySha256 !== run.bodySha256) throw lineError("conflict", context.lineNumber, "bodySha256", `run "${run.id}" is in the project with another upload's hash`);
    context.counts.runs.alreadyPresent++;
    return;
  }
  const resultRows = results.map((result, index) => ({
    runId: run.id,
    projectId,
    startedAt: date(run.startedAt),
    endpointId: context.endpointOf(result.endpointId, `results[${index}].endpointId`),
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
    percentiles: json(result.percentiles),
    histogram: jsonOrNull(result.histogram),
    timeline: jsonOrNull(result.timeline),
    statusCodes: jsonOrNull(result.statusCodes),
    errors: jsonOrNull(result.errors),
  }));
  const metricRows = metrics.map((metric, index) => ({
    runId: run.id,
    projectId,
    startedAt: date(run.startedAt),
    endpointId: context.endpointOf(metric.endpointId, `metrics[${index}].endpointId`),
    key: metric.key,
    value: float(metric.value),
    unit: metric.unit,
    exact: metric.exact,
    better: metric.better,
  }));
  await context.tx.run.create({
    data: {
      ...run,
      projectId,
      startedAt: date(run.startedAt),
      uploadedAt: date(run.uploadedAt),
      gitBaseTime: optionalDate(run.gitBaseTime),
      durationSeconds: optionalFloat(run.durationSeconds),
      hostMemoryGb: optionalFloat(run.hostMemoryGb),
      config: json(run.config),
      attributes: json(run.attributes),
      thresholds: json(run.thresholds),
      checks: json(run.checks),
      notes: json(run.notes),
      gateChanges: json(run.gateChanges),
      budget: jsonOrNull(run.budget),
    },
    select: { id: true },
  });
  await context.tx.result.createMany({ data: resultRows });
  if (metricRows.length > 0) await context.tx.metric.createMany({ data: metricRows });
  context.counts.runs.created++;
}

export async function applyRawLine(context: ImportContext, line: ParsedTransferLine<"raw">): Promise<void> {
  const projectId = context.requireProject("raw");
  // Base64 text the database decodes (store-run.ts explains why not a bytea parameter); only onto a run of
  // this project, and nothing when the file is there already.
  const inserted = await context.tx.$executeRaw`
    INSERT INTO raw_uploads (run_id, position, file_name, content_type, size_bytes, gzip_data, created_at)
    SELECT r.id, ${line.position}::int, ${line.fileName}::text, ${line.contentType}::text, ${line.sizeBytes}::int,
           decode(${line.gzipBase64}::text, 'base64'), ${date(line.createdAt)}::timestamptz
      FROM runs r WHERE r.id = ${line.runId} AND r.project_id = ${projectId}
    ON CONFLICT (run_id, position) DO NOTHING`;
  if (inserted === 0) await requireRuns(context, projectId, [line.runId], "runId");
  context.counts.created.raw! += inserted;
}

export async function applyAnnotationLine(context: ImportContext, line: ParsedTransferLine<"annotation">): Promise<void> {
  const projectId = context.requireProject("annotation");
  const { id, runId, at, annotationKind, text, createdAt } = line;
  if (runId !== null) await requireRuns(context, projectId, [runId], "runId");
  const { count } = await context.tx.annotation.createMany({
    data: [{ id, projectId, runId, at: date(at), kind: annotationKind, text, createdAt: date(createdAt) }],
    skipDuplicates: true,
  });
  context.counts.created.annotation! += count;
}

export async function applyPinLine(context: ImportContext, line: ParsedTransferLine<"pin">): Promise<void> {
  const projectId = context.requireProject("pin");
  const { kind: _kind, createdAt, ...pin } = line;
  const { count } = await context.tx.baselinePin.createMany({ data: [{ ...pin, projectId, createdAt: date(createdAt) }], skipDuplicates: true });
  context.counts.created.pin! += count;
}

export async function applyIncidentLine(context: ImportContext, line: ParsedTransferLine<"incident">): Promise<void> {
  const projectId = context.requireProject("incident");
  const existing = await context.tx.incident.findUnique({ where: { id: line.id }, select: { projectId: true } });
  if (existing) {
    if (existing.projectId !== projectId) throw lineError("conflict", context.lineNumber, "id", `incident "${line.id}" belongs to another project of this server`);
    return;
  }
  await requireRuns(context, projectId, [line.firstRunId], "firstRunId");
  const { kind: _kind, events, stateChangedAt, closedAt, createdAt, ...incident } = line;
  await context.tx.incident.create({
    data: {
      ...incident,
      projectId,
      stateChangedAt: optionalDate(stateChangedAt),
      closedAt: optionalDate(closedAt),
      createdAt: date(createdAt),
      events: { create: events.map((event) => ({ ...event, at: date(event.at) })) },
    },
    select: { id: true },
  });
  context.counts.created.incident!++;
}

export async function applyChangeLine(context: ImportContext, line: ParsedTransferLine<"change">): Promise<void> {
  const projectId = context.requireProject("change");
  const existing = await context.tx.change.findUnique({ where: { id: line.id }, select: { projectId: true } });
  if (existing) {
    if (existing.projectId !== projectId) throw lineError("conflict", context.lineNumber, "id", `change "${line.id}" belongs to another project of this server`);
    return;
  }
  await requireRuns(context, projectId, line.returnRunId === null ? [line.firstRunId] : [line.firstRunId, line.returnRunId], "firstRunId");
  if (line.incidentId !== null) {
    const incident = await context.tx.incident.findFirst({ where: { id: line.incidentId, projectId }, select: { id: true } });
    if (!incident) throw lineError("bad_request", context.lineNumber, "incidentId", `incident "${line.incidentId}" is neither in the file before this line nor in the project`);
  }
  await context.tx.change.create({
    data: {
      id: line.id,
      projectId,
      endpointId: context.endpointOf(line.endpointId, "endpointId"),
      metric: line.metric,
      kind: line.changeKind,
      firstRunId: line.firstRunId,
      beforeValue: float(line.beforeValue),
      afterValue: float(line.afterValue),
      deltaPct: float(line.deltaPct),
      pValue: optionalFloat(line.pValue),
      detectorVersion: line.detectorVersion,
      status: line.status,
      statusChangedAt: optionalDate(line.statusChangedAt),
      statusChangedBy: line.statusChangedBy,
      incidentId: line.incidentId,
      returnRunId: line.returnRunId,
      createdAt: date(line.createdAt),
    },
    select: { id: true },
  });
  context.counts.created.change!++;
}

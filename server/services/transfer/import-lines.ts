import type { z } from "zod";
import { textProblems } from "../../domain/parsers/validate";
import { Prisma } from "../../generated/prisma/client";
import type { PrismaClient } from "../../generated/prisma/client";
import type { ImportAnswer, ParsedTransferLine, StoredFloat, TransferLineKind } from "../../schemas/transfer";
import { TRANSFER_LINE_SCHEMAS } from "../../schemas/transfer";
import { ServiceError } from "../platform";
import { markProjectPending } from "../trends";

/**
 * Reading an export file back (server/schemas/transfer.ts), line by line as it streams in: each line is
 * validated by its kind's one schema (a 400 naming the line and the path at fault) and written at once,
 * all inside ONE transaction, so a file refused at line 90,000 leaves nothing behind. Rows are stored as
 * exported (exact numbers; a run whose raw upload was pruned keeps its numbers), never re-parsed.
 *
 * Idempotent: rows keep their exported ids (runs, incidents, annotations, pins, changes), so a run already
 * in the project (same id, same body hash) and every other row already there are left as they are;
 * importing a file twice creates nothing the second time. Endpoints are matched by name and protocol.
 */

type Tx = Prisma.TransactionClient;

/** An import may take as long as its upload: its one transaction is held that long. */
const IMPORT_TIMEOUT_MS = 6 * 60 * 60 * 1000;

export type ImportMode =
  /** POST /projects/:p/import: one project's file into the existing project `projectId`. */
  | { kind: "project"; projectId: string; slug: string }
  /** npm run restore: a backup (or a project export) into a database with no projects. */
  | { kind: "server" };

type Parsed = { [Kind in TransferLineKind]: { kind: Kind; line: ParsedTransferLine<Kind> } }[TransferLineKind];

function lineError(code: "bad_request" | "conflict", lineNumber: number, path: string, message: string): ServiceError {
  const where = path === "" ? `line ${lineNumber}` : `line ${lineNumber}: ${path}`;
  return new ServiceError(code, `Import refused at ${where}: ${message}; nothing was imported`, [{ path: where, message }]);
}

function zodPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, part) => (typeof part === "number" ? `${text}[${part}]` : text === "" ? String(part) : `${text}.${String(part)}`), "");
}

/** One line of text as its kind's parsed line, or the 400 naming the line and path. */
export function parseTransferLine(text: string, lineNumber: number): Parsed {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw lineError("bad_request", lineNumber, "", "not a JSON object (a truncated or corrupted line?)");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw lineError("bad_request", lineNumber, "", "not a JSON object");
  const kind = (value as { kind?: unknown }).kind;
  if (typeof kind !== "string" || !Object.hasOwn(TRANSFER_LINE_SCHEMAS, kind)) {
    throw lineError("bad_request", lineNumber, "kind", `unknown line kind ${JSON.stringify(kind ?? null)}; expected one of ${Object.keys(TRANSFER_LINE_SCHEMAS).join(", ")}`);
  }
  const schema: z.ZodType = TRANSFER_LINE_SCHEMAS[kind as TransferLineKind];
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw lineError("bad_request", lineNumber, zodPath(issue.path), issue.message);
  }
  // Text no PostgreSQL column can hold (NUL, a lone surrogate): refused here, not as a database error.
  for (const problem of textProblems(value, "")) throw lineError("bad_request", lineNumber, problem.path.replace(/^\./, ""), problem.message);
  return { kind, line: parsed.data } as Parsed;
}

const float = (value: StoredFloat): number => (typeof value === "number" ? value : Number(value));
const optionalFloat = (value: StoredFloat | null): number | null => (value === null ? null : float(value));
const date = (value: string) => new Date(value);
const optionalDate = (value: string | null) => (value === null ? null : new Date(value));
/** A NOT NULL Json column: JSON null is stored as JSON null. */
const json = (value: Prisma.JsonValue): Prisma.InputJsonValue | typeof Prisma.JsonNull => (value === null ? Prisma.JsonNull : (value));
/** A nullable Json column: null is SQL NULL, as the upload path stores it. */
const jsonOrNull = (value: Prisma.JsonValue): Prisma.InputJsonValue | typeof Prisma.DbNull => (value === null ? Prisma.DbNull : (value));

/** PostgreSQL's refusals, found along an error's causes: a unique or foreign key violation, a bad value. */
function databaseRefusal(error: unknown): "unique" | "reference" | "value" | null {
  for (let cause: unknown = error, depth = 0; cause && depth < 6; cause = (cause as { cause?: unknown }).cause, depth++) {
    const { code, message, meta } = cause as { code?: unknown; message?: unknown; meta?: unknown };
    const text = [code, message, meta].map((part) => (typeof part === "string" ? part : JSON.stringify(part ?? ""))).join(" ");
    if (/P2002|23505|UniqueConstraintViolation|unique constraint/i.test(text)) return "unique";
    if (/P2003|23503|ForeignKeyConstraintViolation|foreign key/i.test(text)) return "reference";
    if (/\b22\d{3}\b|P2000|P2020|out of range|invalid input/i.test(text)) return "value";
  }
  return null;
}

export interface ImportCounts {
  lines: number;
  projects: { id: string; slug: string }[];
  runs: { inFile: number; created: number; alreadyPresent: number };
  created: Record<string, number>;
}

/** The importer's state between lines: where it is in the file and what it has written. */
class Importer {
  private lineNumber = 0;
  private sawHeader = false;
  private sawEnd = false;
  private projectId: string | null = null;
  /** The file's endpoint ids → this database's, for the current project. */
  private endpoints = new Map<number, number>();
  readonly counts: ImportCounts = {
    lines: 0,
    projects: [],
    runs: { inFile: 0, created: 0, alreadyPresent: 0 },
    created: { endpoint: 0, raw: 0, annotation: 0, pin: 0, incident: 0, change: 0, member: 0, token: 0, shareLink: 0, user: 0 },
  };

  constructor(
    private readonly tx: Tx,
    private readonly mode: ImportMode,
  ) {}

  async read(lines: AsyncIterable<string>): Promise<ImportCounts> {
    for await (const text of lines) {
      this.lineNumber++;
      if (text.trim() === "") continue;
      if (this.sawEnd) throw lineError("bad_request", this.lineNumber, "", "a line after the end line");
      const parsed = parseTransferLine(text, this.lineNumber);
      try {
        await this.apply(parsed);
      } catch (error) {
        if (error instanceof ServiceError) throw error;
        const refusal = databaseRefusal(error);
        if (refusal === "unique") throw lineError("conflict", this.lineNumber, "id", "a row of this line clashes with one already in the database (another project's, or an incident number taken)");
        if (refusal === "reference") throw lineError("bad_request", this.lineNumber, "", "refers to a run, endpoint or incident that is neither in the file before it nor in the project");
        if (refusal === "value") throw lineError("bad_request", this.lineNumber, "", "a value the database cannot store");
        throw error;
      }
    }
    if (!this.sawHeader) throw lineError("bad_request", 1, "", "the file is empty");
    if (!this.sawEnd) throw lineError("bad_request", this.lineNumber, "", "the file ends without its end line (cut short?)");
    this.counts.lines = this.lineNumber;
    return this.counts;
  }

  private requireProject(kind: string): string {
    if (this.projectId === null) throw lineError("bad_request", this.lineNumber, "kind", `a ${kind} line before the project line`);
    return this.projectId;
  }

  private async apply(parsed: Parsed): Promise<void> {
    if (!this.sawHeader && parsed.kind !== "header") throw lineError("bad_request", this.lineNumber, "kind", "the first line must be the header");
    switch (parsed.kind) {
      case "header": {
        if (this.sawHeader) throw lineError("bad_request", this.lineNumber, "kind", "a second header");
        if (this.mode.kind === "project" && parsed.line.scope !== "project") {
          throw lineError("bad_request", this.lineNumber, "scope", "a server backup is restored with `npm run restore`, not imported into one project");
        }
        this.sawHeader = true;
        return;
      }
      case "user": {
        if (this.mode.kind === "project") throw lineError("bad_request", this.lineNumber, "kind", "user lines belong to a server backup only");
        if (this.projectId !== null) throw lineError("bad_request", this.lineNumber, "kind", "a user line after a project line: users come first, after the header");
        // With its id: a session sealed with it keeps working after the move.
        const { kind: _kind, disabledAt, createdAt, lastSignInAt, ...user } = parsed.line;
        await this.tx.user.create({ data: { ...user, disabledAt: optionalDate(disabledAt), createdAt: date(createdAt), lastSignInAt: optionalDate(lastSignInAt) } });
        this.counts.created.user!++;
        return;
      }
      case "project":
        return this.applyProject(parsed.line);
      case "token":
      case "shareLink": {
        if (this.mode.kind === "project") throw lineError("bad_request", this.lineNumber, "kind", `${parsed.kind} lines belong to a server backup only`);
        const projectId = this.requireProject(parsed.kind);
        if (parsed.kind === "token") {
          const { kind: _kind, createdAt, lastUsedAt, revokedAt, expiresAt, createdBy, ...token } = parsed.line;
          await this.tx.apiToken.create({
            data: {
              ...token,
              projectId,
              createdAt: date(createdAt),
              lastUsedAt: optionalDate(lastUsedAt),
              revokedAt: optionalDate(revokedAt),
              expiresAt: optionalDate(expiresAt ?? null),
              createdBy: createdBy ?? null,
            },
          });
        } else {
          const { kind: _kind, scope, createdAt, expiresAt, revokedAt, ...link } = parsed.line;
          await this.tx.shareLink.create({
            data: { ...link, projectId, scope: json(scope), createdAt: date(createdAt), expiresAt: date(expiresAt), revokedAt: optionalDate(revokedAt) },
          });
        }
        this.counts.created[parsed.kind]!++;
        return;
      }
      case "endpoint":
        return this.applyEndpoint(parsed.line);
      case "run":
        return this.applyRun(parsed.line);
      case "raw":
        return this.applyRaw(parsed.line);
      case "annotation": {
        const projectId = this.requireProject("annotation");
        const { id, runId, at, annotationKind, text, createdAt } = parsed.line;
        if (runId !== null) await this.requireRuns(projectId, [runId], "runId");
        const { count } = await this.tx.annotation.createMany({
          data: [{ id, projectId, runId, at: date(at), kind: annotationKind, text, createdAt: date(createdAt) }],
          skipDuplicates: true,
        });
        this.counts.created.annotation! += count;
        return;
      }
      case "pin": {
        const projectId = this.requireProject("pin");
        const { kind: _kind, createdAt, ...pin } = parsed.line;
        const { count } = await this.tx.baselinePin.createMany({ data: [{ ...pin, projectId, createdAt: date(createdAt) }], skipDuplicates: true });
        this.counts.created.pin! += count;
        return;
      }
      case "incident":
        return this.applyIncident(parsed.line);
      case "change":
        return this.applyChange(parsed.line);
      case "end": {
        const { projects, runs, lines } = parsed.line;
        const problem =
          lines !== this.lineNumber - 1
            ? ["lines", `says ${lines} lines came before it, the file has ${this.lineNumber - 1}`]
            : runs !== this.counts.runs.inFile
              ? ["runs", `says ${runs} runs, the file has ${this.counts.runs.inFile}`]
              : projects !== this.counts.projects.length
                ? ["projects", `says ${projects} projects, the file has ${this.counts.projects.length}`]
                : null;
        if (problem) throw lineError("bad_request", this.lineNumber, problem[0]!, `${problem[1]!} (lines lost or added?)`);
        this.sawEnd = true;
        return;
      }
    }
  }

  private async applyProject(line: ParsedTransferLine<"project">): Promise<void> {
    const settings = {
      name: line.name,
      description: line.description,
      defaultBranch: line.defaultBranch,
      repoUrl: line.repoUrl,
      minEffectPct: line.minEffectPct,
      alpha: line.alpha,
      gateMetric: line.gateMetric,
      failOn: line.failOn,
      rawRetentionDays: line.rawRetentionDays,
      retentionDays: line.retentionDays,
      retentionKeepRuns: line.retentionKeepRuns,
      visibility: line.visibility,
    };
    let projectId: string;
    if (this.mode.kind === "project") {
      if (this.counts.projects.length > 0) throw lineError("bad_request", this.lineNumber, "kind", "a second project line: a project export holds one project");
      // The project of the URL takes the file's settings; its webhook stays its own (a URL is checked and
      // gets a secret in Settings: an import never points a server's webhooks somewhere new).
      projectId = this.mode.projectId;
      await this.tx.project.update({ where: { id: projectId }, data: settings });
      this.counts.projects.push({ id: projectId, slug: this.mode.slug });
    } else {
      const created = await this.tx.project.create({
        data: {
          ...settings,
          id: line.id,
          slug: line.slug,
          isDemo: line.isDemo,
          webhookUrl: line.webhookUrl,
          webhookFormat: line.webhookFormat,
          webhookDigest: line.webhookDigest,
          webhookSecret: line.webhookSecret ?? null,
          createdAt: date(line.createdAt),
          updatedAt: date(line.updatedAt),
        },
      });
      projectId = created.id;
      this.counts.projects.push({ id: projectId, slug: line.slug });
    }
    if (line.slaPolicy === null) {
      await this.tx.slaPolicy.deleteMany({ where: { projectId } });
    } else {
      const policy = { targets: json(line.slaPolicy.targets), updatedAt: date(line.slaPolicy.updatedAt) };
      await this.tx.slaPolicy.upsert({ where: { projectId }, create: { projectId, ...policy }, update: policy });
    }
    await this.applyMembers(projectId, line.members);
    this.projectId = projectId;
    this.endpoints = new Map();
  }

  /**
   * The file's grants, by kind and subject: a new one is created as the file has it, one already there takes
   * the file's role (and who granted it, and when). Grants of the project that the file lacks are kept: an
   * import adds access, it never takes any away.
   */
  private async applyMembers(projectId: string, members: ParsedTransferLine<"project">["members"]): Promise<void> {
    for (const member of members) {
      const { kind, subject, role, grantedBy } = member;
      const createdAt = date(member.createdAt);
      const updatedAt = date(member.updatedAt);
      const existing = await this.tx.projectMember.findUnique({ where: { projectId_kind_subject: { projectId, kind, subject } }, select: { id: true } });
      if (existing) {
        await this.tx.projectMember.update({ where: { id: existing.id }, data: { role, grantedBy, updatedAt } });
      } else {
        await this.tx.projectMember.create({ data: { projectId, kind, subject, role, grantedBy, createdAt, updatedAt } });
        this.counts.created.member!++;
      }
    }
  }

  private async applyEndpoint(line: ParsedTransferLine<"endpoint">): Promise<void> {
    const projectId = this.requireProject("endpoint");
    const existing = await this.tx.endpoint.findFirst({ where: { projectId, name: line.name, protocol: line.protocol }, select: { id: true } });
    if (existing) {
      this.endpoints.set(line.id, existing.id);
      return;
    }
    const created = await this.tx.endpoint.create({
      data: {
        // A restore keeps the ids (the sequence is moved past them after: restoreServer).
        ...(this.mode.kind === "server" && { id: line.id }),
        projectId,
        name: line.name,
        fullName: line.fullName,
        protocol: line.protocol,
        method: line.method,
        createdAt: date(line.createdAt),
      },
      select: { id: true },
    });
    this.endpoints.set(line.id, created.id);
    this.counts.created.endpoint!++;
  }

  private endpointOf(fileId: number | null, path: string): number | null {
    if (fileId === null) return null;
    const id = this.endpoints.get(fileId);
    if (id === undefined) throw lineError("bad_request", this.lineNumber, path, `endpoint ${fileId} has no endpoint line before this one`);
    return id;
  }

  private async requireRuns(projectId: string, runIds: readonly string[], path: string): Promise<void> {
    if (runIds.length === 0) return;
    const found = await this.tx.run.findMany({ where: { id: { in: [...runIds] }, projectId }, select: { id: true } });
    const have = new Set(found.map((run) => run.id));
    const missing = runIds.findIndex((id) => !have.has(id));
    if (missing !== -1) throw lineError("bad_request", this.lineNumber, runIds.length === 1 ? path : `${path}[${missing}]`, `run "${runIds[missing]}" is neither in the file before this line nor in the project`);
  }

  private async applyRun(line: ParsedTransferLine<"run">): Promise<void> {
    const projectId = this.requireProject("run");
    this.counts.runs.inFile++;
    const { kind: _kind, results, metrics, ...run } = line;
    const existing = await this.tx.run.findUnique({ where: { id: run.id }, select: { projectId: true, bodySha256: true } });
    if (existing) {
      if (existing.projectId !== projectId) throw lineError("conflict", this.lineNumber, "id", `run "${run.id}" belongs to another project of this server`);
      if (existing.bodySha256 !== run.bodySha256) throw lineError("conflict", this.lineNumber, "bodySha256", `run "${run.id}" is in the project with another upload's hash`);
      this.counts.runs.alreadyPresent++;
      return;
    }
    const resultRows = results.map((result, index) => ({
      runId: run.id,
      projectId,
      startedAt: date(run.startedAt),
      endpointId: this.endpointOf(result.endpointId, `results[${index}].endpointId`),
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
      endpointId: this.endpointOf(metric.endpointId, `metrics[${index}].endpointId`),
      key: metric.key,
      value: float(metric.value),
      unit: metric.unit,
      exact: metric.exact,
      better: metric.better,
    }));
    await this.tx.run.create({
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
    await this.tx.result.createMany({ data: resultRows });
    if (metricRows.length > 0) await this.tx.metric.createMany({ data: metricRows });
    this.counts.runs.created++;
  }

  private async applyRaw(line: ParsedTransferLine<"raw">): Promise<void> {
    const projectId = this.requireProject("raw");
    // Base64 text the database decodes (store-run.ts explains why not a bytea parameter); only onto a run of
    // this project, and nothing when the file is there already.
    const inserted = await this.tx.$executeRaw`
      INSERT INTO raw_uploads (run_id, position, file_name, content_type, size_bytes, gzip_data, created_at)
      SELECT r.id, ${line.position}::int, ${line.fileName}::text, ${line.contentType}::text, ${line.sizeBytes}::int,
             decode(${line.gzipBase64}::text, 'base64'), ${date(line.createdAt)}::timestamptz
        FROM runs r WHERE r.id = ${line.runId} AND r.project_id = ${projectId}
      ON CONFLICT (run_id, position) DO NOTHING`;
    if (inserted === 0) await this.requireRuns(projectId, [line.runId], "runId");
    this.counts.created.raw! += inserted;
  }

  private async applyIncident(line: ParsedTransferLine<"incident">): Promise<void> {
    const projectId = this.requireProject("incident");
    const existing = await this.tx.incident.findUnique({ where: { id: line.id }, select: { projectId: true } });
    if (existing) {
      if (existing.projectId !== projectId) throw lineError("conflict", this.lineNumber, "id", `incident "${line.id}" belongs to another project of this server`);
      return;
    }
    await this.requireRuns(projectId, [line.firstRunId], "firstRunId");
    const { kind: _kind, events, stateChangedAt, closedAt, createdAt, ...incident } = line;
    await this.tx.incident.create({
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
    this.counts.created.incident!++;
  }

  private async applyChange(line: ParsedTransferLine<"change">): Promise<void> {
    const projectId = this.requireProject("change");
    const existing = await this.tx.change.findUnique({ where: { id: line.id }, select: { projectId: true } });
    if (existing) {
      if (existing.projectId !== projectId) throw lineError("conflict", this.lineNumber, "id", `change "${line.id}" belongs to another project of this server`);
      return;
    }
    await this.requireRuns(projectId, line.returnRunId === null ? [line.firstRunId] : [line.firstRunId, line.returnRunId], "firstRunId");
    if (line.incidentId !== null) {
      const incident = await this.tx.incident.findFirst({ where: { id: line.incidentId, projectId }, select: { id: true } });
      if (!incident) throw lineError("bad_request", this.lineNumber, "incidentId", `incident "${line.incidentId}" is neither in the file before this line nor in the project`);
    }
    await this.tx.change.create({
      data: {
        id: line.id,
        projectId,
        endpointId: this.endpointOf(line.endpointId, "endpointId"),
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
    this.counts.created.change!++;
  }
}

/**
 * Reads `lines` into the database in one transaction: everything or, on the first line refused, nothing.
 * `afterLines` runs in the same transaction once the file was read whole (rollups marked pending, jobs queued).
 */
export async function importLines(
  db: PrismaClient,
  mode: ImportMode,
  lines: AsyncIterable<string>,
  afterLines: (tx: Tx, counts: ImportCounts) => Promise<void>,
  beforeLines: (tx: Tx) => Promise<void> = async () => undefined,
): Promise<ImportCounts> {
  return db.$transaction(
    async (tx) => {
      await beforeLines(tx);
      const counts = await new Importer(tx, mode).read(lines);
      // The imported runs' weeks are recomputed by the rollup job; until then the trend page reads them raw.
      if (counts.runs.created > 0) for (const project of counts.projects) await markProjectPending(tx, project.id);
      await afterLines(tx, counts);
      return counts;
    },
    { timeout: IMPORT_TIMEOUT_MS, maxWait: 30_000 },
  );
}

export function importAnswerOf(slug: string, counts: ImportCounts): ImportAnswer {
  const { endpoint, raw, annotation, pin, incident, change, member } = counts.created;
  return {
    project: slug,
    lines: counts.lines,
    runs: counts.runs,
    created: { endpoint: endpoint ?? 0, raw: raw ?? 0, annotation: annotation ?? 0, pin: pin ?? 0, incident: incident ?? 0, change: change ?? 0, member: member ?? 0 },
  };
}

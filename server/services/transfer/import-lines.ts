import type { Prisma, PrismaClient } from "../../generated/prisma/client";
import type { ImportAnswer, ParsedTransferLine } from "../../schemas/transfer";
import { ServiceError } from "../platform";
import { markProjectPending } from "../trends";
import type { ImportContext, ImportCounts } from "./import-context";
import { applyAnnotationLine, applyChangeLine, applyIncidentLine, applyPinLine, applyRawLine, applyRunLine } from "./import-run-lines";
import type { ParsedLine } from "./parse-line";
import { databaseRefusal, date, json, lineError, optionalDate, parseTransferLine } from "./parse-line";

/**
 * Reading an export file back (server/schemas/transfer.ts), line by line as it streams in: each line is
 * validated by its kind's one schema (a 400 naming the line and the path at fault) and written at once,
 * all inside ONE transaction, so a file refused at line 90,000 leaves nothing behind. Rows are stored as
 * exported (exact numbers; a run whose raw upload was pruned keeps its numbers), never re-parsed.
 *
 * Idempotent: rows keep their exported ids (runs, incidents, annotations, pins, changes), so a run already
 * in the project (same id, same body hash) and every other row already there are left as they are;
 * importing a file twice creates nothing the second time. Endpoints are matched by name and protocol.
 *
 * The importer reads the lines (parse-line.ts) and writes the project-level ones here; the run-level ones
 * are written by import-run-lines.ts.
 */

type Tx = Prisma.TransactionClient;

/** An import may take as long as its upload: its one transaction is held that long. */
const IMPORT_TIMEOUT_MS = 6 * 60 * 60 * 1000;

export type ImportMode =
  /** POST /projects/:p/import: one project's file into the existing project `projectId`. */
  | { kind: "project"; projectId: string; slug: string }
  /** npm run restore: a backup (or a project export) into a database with no projects. */
  | { kind: "server" };

/** The importer's state between lines: where it is in the file and what it has written. */
class Importer implements ImportContext {
  lineNumber = 0;
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
    readonly tx: Tx,
    private readonly mode: ImportMode,
  ) {}

  async read(lines: AsyncIterable<readonly string[]>): Promise<ImportCounts> {
    for await (const batch of lines) {
      for (const text of batch) {
        this.lineNumber++;
        if (text.trim() !== "") await this.readLine(text);
        // The end line counts every line before it, blank ones too, and an export writes none: a blank
        // line before it can only end in a refusal, given here at once (a body of millions of newlines,
        // a few MB gzipped, was read to its end inside the import's transaction). After it: passed over.
        else if (!this.sawEnd) throw lineError("bad_request", this.lineNumber, "", "a blank line (an export has none before its end line)");
      }
    }
    if (!this.sawHeader) throw lineError("bad_request", 1, "", "the file is empty");
    if (!this.sawEnd) throw lineError("bad_request", this.lineNumber, "", "the file ends without its end line (cut short?)");
    this.counts.lines = this.lineNumber;
    return this.counts;
  }

  /** Line `lineNumber`, not blank: parsed and written, or refused naming it. */
  private async readLine(text: string): Promise<void> {
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

  requireProject(kind: string): string {
    if (this.projectId === null) throw lineError("bad_request", this.lineNumber, "kind", `a ${kind} line before the project line`);
    return this.projectId;
  }

  private async apply(parsed: ParsedLine): Promise<void> {
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
        return applyRunLine(this, parsed.line);
      case "raw":
        return applyRawLine(this, parsed.line);
      case "annotation":
        return applyAnnotationLine(this, parsed.line);
      case "pin":
        return applyPinLine(this, parsed.line);
      case "incident":
        return applyIncidentLine(this, parsed.line);
      case "change":
        return applyChangeLine(this, parsed.line);
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

  endpointOf(fileId: number | null, path: string): number | null {
    if (fileId === null) return null;
    const id = this.endpoints.get(fileId);
    if (id === undefined) throw lineError("bad_request", this.lineNumber, path, `endpoint ${fileId} has no endpoint line before this one`);
    return id;
  }
}

/**
 * Reads `lines` into the database in one transaction: everything or, on the first line refused, nothing.
 * `afterLines` runs in the same transaction once the file was read whole (rollups marked pending, jobs queued).
 */
export async function importLines(
  db: PrismaClient,
  mode: ImportMode,
  lines: AsyncIterable<readonly string[]>,
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

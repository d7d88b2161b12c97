/**
 * What every part of the gate evaluation shares: synthetic runs as `benchtrack/v1` documents, the
 * upload through `uploadRun` (as `POST …/runs` does), the detection job run at once, and the pure path
 * (the same functions the upload calls: the domain parser, then `decideFromRuns`).
 */
import type { Database } from "../../server/db";
import type { FailOnValue } from "../../server/domain/fail-on";
import type { InconclusiveKind } from "../../server/domain/compare/compare-runs";
import type { Outcome } from "../../server/domain/gate/outcome";
import { applyRunMetadata, parseUpload, runMetadataSchema, validateParsedRun } from "../../server/domain/parsers";
import type { SeededRandom } from "../../server/domain/stats/random";
import type { PrismaClient } from "../../server/generated/prisma/client";
import { runQueuedJobs } from "../../server/jobs/worker";
import { jobQueueOf } from "../../server/services/platform";
import { findProject } from "../../server/services/projects";
import type { ReceivedUpload } from "../../server/services/ingest";
import { uploadOfFiles } from "../../server/services/ingest";
import { decideFromRuns } from "../../server/domain/gate/judge";
import { toComparable } from "../../server/services/compare";
import type { LoadedRun } from "../../server/services/runs";
import { uploadRun } from "../../server/services/ingest";

export interface EvaluationOptions {
  trials: number;
  seed: number;
  /** Run-to-run coefficients of variation, as fractions (0.05 for 5%). */
  cvs: number[];
  crosscheckTrials: number;
  stepSeeds: number;
  flatSeeds: number;
  flatRuns: number;
}

/** The gate's defaults for a new project (prisma/schema.prisma): what every upload here is judged with. */
export const PROJECT_DEFAULTS = { minEffectPct: 5, alpha: 0.01, gateMetric: "auto" } as const;
/** Only the regression check: no SLA policy or tool thresholds take part in these figures. */
export const FAIL_ON: FailOnValue[] = ["regression"];

const START = Date.UTC(2026, 0, 1);
/** The time of the index-th run: one an hour. */
export const hourAt = (index: number) => new Date(START + index * 3_600_000);

export type Answer = Awaited<ReturnType<typeof uploadRun>>["json"];

/** One upload as `POST /api/v1/projects/{slug}/runs` makes it (admin token: the first upload creates the project). */
export async function upload(db: PrismaClient, slug: string, body: ReceivedUpload, metadata: Record<string, unknown>): Promise<Answer> {
  const answer = await uploadRun(db, {
    target: { projectSlug: slug, project: await findProject(db, slug), mayCreateProject: true },
    upload: body,
    query: { format: null, metadata: runMetadataSchema.parse(metadata), idempotencyKey: null, failOn: FAIL_ON },
    baseUrl: "http://localhost:3000",
  });
  return answer.json;
}

/** Runs every queued job now (the change-point detection each upload on main queues), as the workers would. */
export async function runDetectionNow(database: Database): Promise<void> {
  await runQueuedJobs({ db: database.prisma, queue: await jobQueueOf(database) });
}

/** Regressions the detector opened in a project. */
export async function openedRegressions(db: PrismaClient, slug: string) {
  return db.change.findMany({
    where: { project: { slug }, kind: "regression" },
    select: { id: true, status: true, metric: true, deltaPct: true, endpoint: { select: { name: true } }, firstRun: { select: { id: true } } },
  });
}

/** An endpoint's share of a run: its median is its level; mean, p90, p95 and p99 in fixed ratios to it. */
export const LEVELS_MS = [5, 10, 20, 40, 80];

export interface Slowdown {
  /** How much slower, in percent. */
  pct: number;
  /** Which endpoints: the first one, or all. */
  endpoints: "one" | "all";
}

export interface SeriesModel {
  levels: readonly number[];
  requests: number;
  /** Run-to-run coefficient of variation of p95 (a fraction). */
  cv: number;
}

/**
 * A synthetic run as a `benchtrack/v1` document. Per endpoint one factor f ~ 1 + N(0, cv) moves all its
 * statistics together (a run is faster or slower as a whole); mean, p50, p90 and p99 get a little
 * independent jitter (cv/4) on top, p95 none, so p95 (the gate metric) has run-to-run CV = cv exactly.
 */
export function syntheticDocument(random: SeededRandom, model: SeriesModel, startedAt: Date, slowdown: Slowdown | null, shared: readonly number[] | null = null) {
  const endpoints = model.levels.map((level, position) => {
    const slowed = slowdown && (slowdown.endpoints === "all" || position === 0) ? 1 + slowdown.pct / 100 : 1;
    // `shared`: each endpoint's factor common to the runs of one CI job (its machine), times the run's own.
    const factor = (shared?.[position] ?? 1) * (1 + random.gaussian(0, model.cv));
    const jitter = () => 1 + random.gaussian(0, model.cv / 4);
    const base = level * slowed * factor;
    return {
      name: `Endpoint${position + 1}`,
      requests: model.requests,
      failures: 0,
      latency: { unit: "ms", mean: base * 1.1 * jitter(), p50: base * jitter(), p90: base * 1.7 * jitter(), p95: base * 2, p99: base * 3 * jitter() },
    };
  });
  return { schema: "benchtrack/v1", tool: "synthetic", label: "nightly", startedAt: startedAt.toISOString(), endpoints };
}

export type SyntheticDocument = ReturnType<typeof syntheticDocument>;

export function uploadOfDocument(document: object): ReceivedUpload {
  return uploadOfFiles([{ name: "run.json", contentType: "application/json", bytes: Buffer.from(JSON.stringify(document)) }]);
}

/**
 * The run as the upload would read it (the same domain parser, metadata applied, validated) wrapped as
 * the `LoadedRun` the gate reads back from the database.
 */
export function loadedOfDocument(document: SyntheticDocument, id: string, metadata: Record<string, unknown> = {}, abPair: number | null = null): LoadedRun {
  const parsed = parseUpload({ files: [{ name: "run.json", text: JSON.stringify(document) }] });
  const run = validateParsedRun(applyRunMetadata(parsed.run, runMetadataSchema.parse(metadata)));
  const startedAt = new Date(document.startedAt);
  return { run, stored: { id, uploadedAt: startedAt, startedAt, idempotencyKey: null, isDemo: false, abPair } };
}

export interface PureAnswer {
  outcome: Outcome;
  kind: InconclusiveKind | null;
  regressed: boolean;
}

/** The gate on the pure path: `baseRuns` newest first, as chooseBaseline lists them; `headRuns` the run first. */
export function judgePure(baseRuns: readonly LoadedRun[], headRuns: readonly LoadedRun[], noiseOnlyRuns: readonly LoadedRun[] = []): PureAnswer {
  const { decision } = decideFromRuns({
    baseRuns: baseRuns.map(toComparable),
    headRuns: headRuns.map(toComparable),
    noiseOnlyRuns: noiseOnlyRuns.map(toComparable),
    project: PROJECT_DEFAULTS,
    failOn: FAIL_ON,
    grade: null,
    thresholds: { evaluated: 0, failed: [] },
    tool: headRuns[0]!.run.tool,
    baselineHow: "the evaluation's baseline",
    openRegression: null,
  });
  return { outcome: decision.outcome, kind: decision.inconclusive?.kind ?? null, regressed: decision.regressions.length > 0 };
}

/** Counts of outcomes. */
export class Tally {
  pass = 0;
  fail = 0;
  inconclusive = 0;
  readonly kinds = new Map<string, number>();

  add(outcome: Outcome, kind: string | null = null): void {
    this[outcome]++;
    if (outcome === "inconclusive") this.kinds.set(kind ?? "?", (this.kinds.get(kind ?? "?") ?? 0) + 1);
  }

  get total(): number {
    return this.pass + this.fail + this.inconclusive;
  }

  rate(outcome: Outcome): number | null {
    return this.total === 0 ? null : this[outcome] / this.total;
  }

  kindsText(): string {
    return [...this.kinds].map(([kind, count]) => `${kind} ${count}`).join(", ") || "–";
  }
}

/** "12.5%" (one decimal), or "–" for no data. */
export const percent = (rate: number | null) => (rate === null ? "–" : `${(100 * rate).toFixed(1)}%`);

/** A Markdown table (also printed as is: it reads well in a terminal). */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}

/** A part's result: Markdown sections (printed too) and the targets it checked. */
export interface PartReport {
  title: string;
  /** How it was run, in words (path: upload or pure; sizes). */
  method: string;
  body: string;
  targets: TargetCheck[];
  seconds?: number;
}

export interface TargetCheck {
  target: string;
  figure: string;
  met: boolean;
}

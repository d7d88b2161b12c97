import type { ReadDb } from "../../db";
import type { PrismaClient } from "../../generated/prisma/client";
import type { FailOnValue } from "../../domain/fail-on";
import { effectiveFailOn } from "../../domain/fail-on";
import type { ComparableRun } from "../../domain/compare/compare-runs";
import type { Outcome } from "../../domain/gate/outcome";
import type { GateSettings, GateResult, JudgeInput } from "../../domain/gate/judge";
import { judgeGate } from "../../domain/gate/judge";
import { prCommentIdentity } from "../../domain/report/pr-comment";
import { renderRunMarkdown } from "../../domain/report/run-markdown";
import type { SlaPolicy } from "../../domain/sla/policy";
import { budgetAnswer, describeBudget, settingsWithBudget } from "../../domain/gate/budget";
import { absoluteUrl, pagePaths } from "../../domain/urls";
import { chooseBaseline } from "./baselines";
import type { AbJobRun } from "../../domain/gate/ab-job";
import { completePairs } from "../../domain/gate/ab-job";
import type { ChosenBaseline } from "./baselines";
import type { RunIdentity } from "../runs";
import { toComparable } from "../compare";
import { judgeInPool } from "../platform";
import type { ProjectRef } from "../access";
import { effectiveVisibility } from "../access";
import { shareLinkFor } from "../sharing";
import { gradeLoadedRun, getSlaPolicy } from "../runs";
import type { LoadedRun } from "../runs";
import { loadParsedRun } from "../runs";
import { loadRunNumbers } from "../runs";
import { notFound } from "../platform";
import { requireProject } from "../projects";
import { RUN_IDENTITY_SELECT, runPageUrl, toRunDocument } from "../runs";

/**
 * The CI gate of a run as a use case: read what its gate result needs (its baseline, chosen by baselines.ts,
 * the earlier rounds of its commit, the SLA policy), judge it (domain/gate/judge.ts, pure), and answer
 * it as JSON and Markdown. The upload judges the run it has just parsed before storing it (upload-run.ts);
 * GET …/verdict and the run page judge a stored run here.
 */

/** A gate result with the judged run as read or parsed, so callers can render it without reading it again. */
export type RunGateResult = GateResult & { run: LoadedRun };

/** The run the gate judges: its id, what picks its baseline, and what its upload answered (when known). */
export type GateHead = RunIdentity & { outcome?: string | null; outcomeReasons?: string[] };

export type GateProject = GateSettings & { id: string; slug: string; defaultBranch: string };

/** The stored run the gate judges, or the not-found of a run that is not the project's. */
export async function findGateHead(db: ReadDb, projectId: string, runId: string): Promise<GateHead> {
  const head = await db.run.findFirst({
    where: { id: runId, projectId },
    select: { ...RUN_IDENTITY_SELECT, outcome: true, outcomeReasons: true },
  });
  if (!head) throw notFound(`Run "${runId}"`);
  return head;
}

/** What a run's gate reads besides the run itself: its baseline and earlier rounds (their numbers), the SLA policy. */
export interface GateHistory {
  baseline: ChosenBaseline;
  baseRuns: ComparableRun[];
  noiseOnlyRuns: ComparableRun[];
  /** The earlier rounds of the head's commit, newest first (the head itself is not among them). */
  otherRounds: ComparableRun[];
  policy: SlaPolicy | null;
  /** An A/B job's run: the job's runs (the judged run among them) and the side the judged run measured. */
  ab: { job: string; uploaded: AbJobRun; runs: AbJobRun[] } | null;
}

/** The series' runs an A/B job's head is judged with: the job's own, of the same tool, label and testbed. */
async function readAbJob(db: ReadDb, project: GateProject, head: RunIdentity & { abJob: string }) {
  const rows = await db.run.findMany({
    where: { projectId: project.id, abJob: head.abJob, tool: head.tool, label: head.label, testbed: head.testbed, id: { not: head.id } },
    orderBy: [{ startedAt: "desc" }, { id: "desc" }],
    take: MAX_AB_RUNS,
    select: { id: true, abSide: true, abPair: true },
  });
  const uploaded: AbJobRun = { id: head.id, side: head.abSide === "base" ? "base" : "head", pair: head.abPair ?? 1 };
  const others = rows.map((row): AbJobRun => ({ id: row.id, side: row.abSide === "base" ? "base" : "head", pair: row.abPair ?? 1 }));
  return { uploaded, runs: [uploaded, ...others] };
}

/** Runs of one A/B job read, at most (a budget of 50 pairs). */
const MAX_AB_RUNS = 100;

/**
 * Reads a run's gate history: the baseline's choice (a few small queries), then the numbers of its runs,
 * most of them from memory (run-numbers.ts). `db` may be a transaction (the upload that creates its project).
 */
export async function readGateHistory(db: ReadDb, project: GateProject, head: RunIdentity): Promise<GateHistory> {
  const abJob = head.abJob ?? null;
  const [series, policy, ab] = await Promise.all([
    chooseBaseline(db, project, head),
    getSlaPolicy(db, project.id),
    abJob === null ? null : readAbJob(db, project, { ...head, abJob }),
  ]);
  if (ab !== null) {
    // The job's base runs are the baseline; the series' own (its runs on the base branch) only lend their noise.
    const others = ab.runs.filter((run) => run.id !== head.id);
    const baseIds = others.filter((run) => run.side === "base").map((run) => run.id);
    const headIds = others.filter((run) => run.side === "head").map((run) => run.id);
    const noiseIds = [...series.runIds, ...series.noiseOnlyRunIds];
    const numbers = await loadRunNumbers(db, project.id, [...baseIds, ...headIds, ...noiseIds]);
    const loaded = (ids: readonly string[]) => ids.flatMap((id) => (numbers.has(id) ? [toComparable(numbers.get(id)!)] : []));
    const pairs = completePairs(ab.runs);
    const baseline: ChosenBaseline = {
      runIds: baseIds,
      noiseOnlyRunIds: noiseIds,
      headRunIds: [head.id, ...headIds],
      how: `A/B job ${abJob}: its base runs, interleaved with its head runs in the same job (${pairs} complete pair${pairs === 1 ? "" : "s"})`,
      pinned: false,
      basis: "ab-job",
      openRegression: null,
      openIncident: null,
    };
    return { baseline, baseRuns: loaded(baseIds), noiseOnlyRuns: loaded(noiseIds), otherRounds: loaded(headIds), policy, ab: { job: abJob!, ...ab } };
  }
  const otherRoundIds = series.headRunIds.filter((id) => id !== head.id);
  const numbers = await loadRunNumbers(db, project.id, [...series.runIds, ...series.noiseOnlyRunIds, ...otherRoundIds]);
  const loaded = (ids: readonly string[]) => ids.flatMap((id) => (numbers.has(id) ? [toComparable(numbers.get(id)!)] : []));
  return { baseline: series, baseRuns: loaded(series.runIds), noiseOnlyRuns: loaded(series.noiseOnlyRunIds), otherRounds: loaded(otherRoundIds), policy, ab: null };
}

/** Judges a run (stored, or parsed and about to be stored) against the history read for it. */
export function judgeWithHistory(project: GateProject, history: GateHistory, head: LoadedRun, failOn: FailOnValue[]): RunGateResult {
  return { ...judgeGate(gateInputOf(project, history, head, failOn)), run: head };
}

/**
 * judgeWithHistory with the statistics in a CPU thread (cpu-pool.ts): what the upload does, so a suite of
 * thousands of benchmarks is judged without holding the event loop.
 */
export async function judgeWithHistoryOffThread(project: GateProject, history: GateHistory, head: LoadedRun, failOn: FailOnValue[], signal?: AbortSignal): Promise<RunGateResult> {
  return { ...(await judgeInPool(gateInputOf(project, history, head, failOn), { uploaded: toComparable(head), signal })), run: head };
}

/** What the gate (domain/gate/judge.ts) judges a run with: its history as read, the run itself and its SLA grade. */
function gateInputOf(project: GateProject, history: GateHistory, head: LoadedRun, failOn: FailOnValue[]): JudgeInput {
  // The run's own budget (a benchtrack.json sent with its upload) stands over Settings, field by field.
  const grade = gradeLoadedRun(history.policy, head);
  // An A/B job's base run is judged as the job stands: the job's head runs against its base runs, this one among them.
  const [firstHead, ...otherHeads] = history.otherRounds;
  const isAbBase = history.ab?.uploaded.side === "base" && firstHead !== undefined;
  const uploaded = toComparable(head);
  return {
    projectSlug: project.slug,
    project: settingsWithBudget({ minEffectPct: project.minEffectPct, alpha: project.alpha, gateMetric: project.gateMetric }, head.stored.budget),
    baseline: history.baseline,
    // (An A/B job with no head run yet has nothing to judge: no baseline, too little history.)
    baseRuns: isAbBase ? [uploaded, ...history.baseRuns] : history.ab?.uploaded.side === "base" ? [] : history.baseRuns,
    headRuns: isAbBase ? [firstHead, ...otherHeads] : [uploaded, ...history.otherRounds],
    noiseOnlyRuns: history.noiseOnlyRuns,
    head: head.run,
    grade,
    failOn,
    ab: history.ab,
  };
}

/** Judges a stored run: its history, and the run itself with its timelines (the answer carries the whole run, as GET …/runs/{id} does). */
export async function judgeRun(db: ReadDb, project: GateProject, head: GateHead, failOn: FailOnValue[]): Promise<RunGateResult> {
  const [history, headRun] = await Promise.all([readGateHistory(db, project, head), loadParsedRun(db, project.id, head.id, { timelines: true })]);
  if (!headRun) throw notFound(`Run "${head.id}"`);
  return judgeWithHistory(project, history, headRun, failOn);
}

/** The gate's comparison as the API shows it: absolute links to the baseline runs and the comparison page. */
function gateComparison(gate: RunGateResult, baseUrl: string, projectSlug: string) {
  const { comparison } = gate;
  return {
    baseline: {
      how: comparison.baseline.how,
      pinned: comparison.baseline.pinned,
      basis: comparison.baseline.basis,
      openRegression: comparison.baseline.openRegression,
      openIncident: comparison.baseline.openIncident && {
        ...comparison.baseline.openIncident,
        url: absoluteUrl(baseUrl, pagePaths.incident(projectSlug, comparison.baseline.openIncident.number)),
      },
      runs: comparison.baseline.runs.map((run) => ({
        ...run,
        url: runPageUrl(baseUrl, projectSlug, run.id),
      })),
    },
    headRuns: comparison.headRuns,
    verdict: comparison.verdict,
    changes: comparison.changes,
    kind: comparison.kind,
    regressions: comparison.regressions,
    improvements: comparison.improvements,
    url: comparison.comparePath ? absoluteUrl(baseUrl, comparison.comparePath) : null,
  };
}

/** How long the share links of a private project's PR comment open their pages. */
const PR_SHARE_LINK_SECONDS = 30 * 24 * 3600;

/**
 * A gate result as both answers give it: the JSON fields, and the Markdown a PR comment shows. Of a private
 * project (its own visibility, or the server's default) the Markdown links are share links, so reviewers can open them without
 * a token (stored on `primary`, and the same links again for the same run within a day: sharing's
 * shareLinkFor); the JSON keeps the plain links. The Markdown ends with the hidden marker of its project and
 * series, and the JSON carries it too (`comment`), so CI can find its comment again and update it in
 * place rather than add one per push (docs/ci.md).
 */
export async function gateAnswer(primary: PrismaClient, project: ProjectRef, gate: RunGateResult, baseUrl: string) {
  const run = toRunDocument(project, gate.run, gate.grade, baseUrl);
  const comparePath = gate.comparison.comparePath;
  const minting = { ttlSeconds: PR_SHARE_LINK_SECONDS, baseUrl, createdBy: "CI gate" };
  const compareShare = async () => {
    const link = await shareLinkFor(
      primary,
      project,
      {
        kind: "compare",
        project: project.slug,
        base: gate.comparison.baseline.runs.map((baseRun) => baseRun.id).join(","),
        head: gate.comparison.headRuns.join(","),
        tool: null,
      },
      minting,
    );
    // The gate's own test, so the page shows the numbers the gate decided on.
    const url = new URL(link.url);
    url.searchParams.set("test", "student");
    return url.toString();
  };
  // A private project's links would open nothing to the PR's readers: they go through share links.
  const shared = effectiveVisibility(project.visibility) === "private"
    ? {
        run: (await shareLinkFor(primary, project, { kind: "run", project: project.slug, runId: gate.run.stored.id }, minting)).url,
        compare: comparePath === null ? null : await compareShare(),
      }
    : null;
  const identity = prCommentIdentity(project.slug, { ...gate.run.run, testbed: gate.run.run.environment.testbed });
  const budget = gate.run.stored.budget ? describeBudget(gate.run.stored.budget) : null;
  const markdown = `${renderRunMarkdown({ ...run, url: shared?.run ?? run.url, budget }, gate, baseUrl, shared?.compare)}\n${identity.marker}\n`;
  return {
    run,
    shareLinks: shared,
    fields: {
      outcome: gate.outcome,
      verdict: gate.outcome,
      reasons: gate.reasons,
      notes: gate.notes,
      inconclusive: gate.inconclusive,
      failOn: gate.failOn,
      thresholds: gate.thresholds,
      comparison: gateComparison(gate, baseUrl, project.slug),
      ab: gate.ab,
      grade: gate.grade,
      budget: budgetAnswer(gate.run.stored.budget),
      comment: { ...identity, markdown },
    },
    markdown: () => markdown,
  };
}

/** What the upload answered, kept with the run (null for runs stored before outcomes were kept). */
export interface KeptOutcome {
  outcome: Outcome;
  reasons: string[];
}

export function keptOutcome(row: { outcome?: string | null; outcomeReasons?: string[] }): KeptOutcome | null {
  const outcome = row.outcome === "pass" || row.outcome === "fail" || row.outcome === "inconclusive" ? row.outcome : null;
  return outcome === null ? null : { outcome, reasons: row.outcomeReasons ?? [] };
}

/**
 * GET …/runs/{id}/verdict: the gate of a stored run as it stands now (`failOn` as given or the
 * project's), and what its upload answered (`atUpload`): they differ when the SLA policy, a pin, a
 * triage or the history changed since, and both are shown, never one for the other.
 */
export async function getRunGate(db: ReadDb, primary: PrismaClient, projectSlug: string, runId: string, failOn: FailOnValue[] | null, baseUrl: string) {
  const project = await requireProject(db, projectSlug);
  const head = await findGateHead(db, project.id, runId);
  const gate = await judgeRun(db, project, head, effectiveFailOn(failOn, project.failOn));
  const answer = await gateAnswer(primary, project, gate, baseUrl);
  return { json: { id: head.id, ...answer.fields, atUpload: keptOutcome(head) }, markdown: answer.markdown };
}

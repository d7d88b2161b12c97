import { z } from "zod";
import { COMPARISON_TESTS } from "../domain/compare/comparison";
import { decimalIntegerSchema } from "./integers";
import { incidentStateSchema } from "./incidents";
import { projectSlugSchema } from "./projects";
import { runDocumentSchema } from "../domain/parsers/benchtrack";
import { FORMAT_NAMES, resolveFormatName } from "../domain/parsers/formats";
import { FAIL_ON_VALUES, parseFailOn } from "../domain/fail-on";
import type { FailOnValue } from "../domain/fail-on";
import { InputError } from "../domain/input-error";
import { parseMetadataQuery, runMetadataSchema } from "../domain/parsers/metadata";
import type { RunMetadata } from "../domain/parsers/metadata";
import { gradeSchema } from "./sla";
import { budgetAnswerSchema, parseBudgetHeaders } from "./budget";
import type { UploadedBudget } from "./budget";
import { INCONCLUSIVE_KINDS, OUTCOMES } from "../domain/gate/outcome";
import { GATE_CHANGE_STATUSES } from "../domain/gate/judge";
import { AB_SIDES } from "../domain/gate/ab-job";

/** Wire schemas of runs: listing, reading, uploading and judging them. */
export const listRunsQuerySchema = z.object({
  label: z.string().max(1024).optional(),
  branch: z.string().max(1024).optional(),
  tool: z.string().max(200).optional(),
  cursor: z.string().max(200).optional().describe("The nextCursor of the previous page."),
  limit: decimalIntegerSchema({ min: 1, max: 200 }).default(50),
});

// ---- Answers ----

const aggregateSummarySchema = z
  .object({
    requests: z.number().nullable(),
    failures: z.number().nullable(),
    errorRate: z.number().nullable().describe("0..1"),
    throughput: z.number().nullable().describe("Requests per second."),
    p50Ms: z.number().nullable(),
    p95Ms: z.number().nullable(),
    p99Ms: z.number().nullable(),
  })
  .nullable()
  .describe("The run's aggregate (all endpoints), or null.");

export const runSummarySchema = z.object({
  id: z.string(),
  url: z.url().describe("The run's page in the dashboard."),
  label: z.string().nullable(),
  round: z.number().int().nullable(),
  tool: z.string(),
  format: z.string(),
  startedAt: z.iso.datetime(),
  durationSeconds: z.number().nullable(),
  git: z.object({
    branch: z.string().nullable(),
    commit: z.string().nullable(),
    pullRequest: z.number().int().nullable(),
  }),
  aggregate: aggregateSummarySchema,
});

export const runListSchema = z
  .object({
    runs: z.array(runSummarySchema).describe("Newest first."),
    nextCursor: z.string().nullable().describe("Pass as ?cursor= for the next page; null on the last page."),
  })
  .describe("A page of runs.");

export const storedRunSchema = runDocumentSchema
  .extend({
    id: z.string().describe("The run's id."),
    url: z.url().describe("The run's page in the dashboard."),
    project: z.string().describe("The project's slug."),
    uploadedAt: z.iso.datetime(),
    grade: gradeSchema,
  })
  .describe("A stored run: its id and page, then the run in the Benchtrack JSON format v1 (RunDocument).");

const gateChangeSchema = z.object({
  endpoint: z.string().nullable().describe("The endpoint; null for the run's aggregate (all endpoints)."),
  metric: z.string().describe('"p95", "mean", "throughput", "errorRate", "metrics.<key>"…'),
  unit: z.string().nullable(),
  base: z.number().nullable().describe("The baseline's value (mean of its runs)."),
  head: z.number().nullable().describe("This run's value."),
  deltaPct: z.number().nullable().describe("100 · (head − base) / base."),
  pValue: z.number().nullable().describe("One-sided, in the direction of the change."),
  test: z.enum(COMPARISON_TESTS).nullable(),
  reason: z.string(),
});

export const gateComparisonSchema = z
  .object({
    baseline: z.object({
      how: z.string().describe('How the baseline was chosen, in words ("the last 5 k6 runs labelled nightly on main").'),
      pinned: z.boolean(),
      basis: z
        .enum(["pinned", "merge-base", "before-merge-base", "recent", "ab-job"])
        .describe(
          "What chose it: a pin; the base branch's runs at and before the upload's base_commit; the base branch's runs before its time (the merge-base had none); the default branch's runs before this run; the base runs of the run's own A/B job.",
        ),
      openRegression: z
        .string()
        .nullable()
        .describe("An open regression of the series the baseline stops before (runs are judged against the level before it until it is triaged); null when none."),
      openIncident: z
        .object({
          number: z.number().int().describe("Its number within the project."),
          state: incidentStateSchema,
          url: z.url().describe("Its page."),
        })
        .nullable()
        .describe("The incident of that open regression (open, investigating, fixed or backed out: not yet accepted or marked invalid); null when none."),
      runs: z.array(
        z.object({
          id: z.string(),
          label: z.string().nullable(),
          round: z.number().int().nullable(),
          startedAt: z.iso.datetime(),
          url: z.url().describe("The run's page."),
        }),
      ),
    }),
    headRuns: z.array(z.string()).describe("The head: this run and the earlier rounds of its commit on its branch, judged together (newest first)."),
    verdict: z.enum(["regressed", "improved", "unchanged", "inconclusive"]).describe("The comparison's verdict over the endpoints' gate metrics."),
    kind: z.string().describe('How the runs were compared: "group-vs-run", "groups", "pairwise", "none" (no baseline run)…'),
    regressions: z.array(gateChangeSchema).describe("Each endpoint whose gate metric regressed (what fails the gate)."),
    changes: z
      .array(
        gateChangeSchema.extend({
          protocol: z.string().nullable().describe('Its protocol ("benchmark" for a benchmark).'),
          status: z
            .enum(GATE_CHANGE_STATUSES)
            .describe(
              "regressed: worse, significant once corrected (fails the gate); exact: an exact count (allocations, instructions) that changed (fails the gate when worse by the minimum effect); undecided: worse, significant alone or not told apart from the machine (inconclusive); improved.",
            ),
          why: z.string().describe('The status in words: "significant: p < 0.001, Holm-adjusted p = 0.002", "exact: 2 → 16", "undecided: significant alone (p = 0.004), not once corrected (Holm-adjusted p = 0.028)".'),
        }),
      )
      .describe("Every change the gate named: slowdowns first (regressed, exact, undecided), largest first, then improvements; each with its status."),
    improvements: z.number().int().describe("Endpoints whose gate metric improved."),
    url: z.url().nullable().describe("The comparison page; null without a baseline."),
  })
  .describe("The run against its baseline.");

const outcomeSchema = z
  .enum(OUTCOMES)
  .describe("pass; fail (something in failOn failed); inconclusive (nothing failed, but the regression check could not judge any endpoint: see `inconclusive`).");

const gateFieldsSchema = {
  outcome: outcomeSchema,
  verdict: outcomeSchema.describe("The same as outcome (kept for scripts written when it was pass or fail)."),
  reasons: z.array(z.string()).describe("Why it fails, or why it is inconclusive; empty when it passes."),
  notes: z
    .array(z.string())
    .describe("What else to know: endpoints not judged, the smallest slowdown the check could catch at this noise, an open regression."),
  inconclusive: z
    .object({ kind: z.enum(INCONCLUSIVE_KINDS), reason: z.string() })
    .nullable()
    .describe("When the regression check could not judge any endpoint: why, as a keyword and in words; null when it could."),
  ab: z
    .object({
      job: z.string().describe("The A/B job (ab_job)."),
      side: z.enum(AB_SIDES).describe("The side the run measured."),
      pair: z.number().int().describe("Its pair."),
      pairs: z.number().int().describe("Pairs of the job with both sides uploaded."),
      runs: z.object({ base: z.number().int(), head: z.number().int() }).describe("The job's runs so far."),
      decided: z.boolean().describe("Whether the answer stands: more pairs would not change it."),
      next: z.enum(["stop", "more-pairs"]).describe("Run another pair (while undecided, up to the job's budget), or stop."),
      reason: z.string(),
    })
    .nullable()
    .describe("A same-job A/B run (ab_job, ab_side, ab_pair): the job's head runs judged against its own base runs, and whether to run another pair. null for other runs."),
};

const failOnSchema = z.array(z.enum(FAIL_ON_VALUES)).describe("What fails the gate (from ?fail_on=, else the project's setting and thresholds).");

const toolThresholdsSchema = z
  .object({
    evaluated: z.number().int().describe("How many pass/fail criteria the tool evaluated (k6 thresholds)."),
    failed: z.array(z.object({ metric: z.string(), expression: z.string() })).describe("Those that failed."),
  })
  .describe("The tool's own verdict; a failed threshold fails the run when failOn has thresholds.");

const prCommentSchema = z
  .object({
    series: z.string().describe('The series the comment follows: the run\'s tool and label, each URI-encoded, as "<tool>:<label>" ("k6:baseline").'),
    marker: z
      .string()
      .describe("A hidden HTML comment, `<!-- benchtrack:<project>:<series> -->`, that ends the Markdown: CI finds its comment of this project and series by it and updates it in place."),
    markdown: z.string().describe("The pull-request comment: the same text as the answer to Accept: text/markdown (share links on a private server)."),
  })
  .describe("The run as a pull-request comment, and how to find that comment again on the next push.");

export const runVerdictSchema = z
  .object({
    id: z.string().describe("The run's id."),
    ...gateFieldsSchema,
    failOn: failOnSchema,
    thresholds: toolThresholdsSchema,
    comparison: gateComparisonSchema,
    grade: gradeSchema,
    budget: budgetAnswerSchema,
    comment: prCommentSchema,
    atUpload: z
      .object({ outcome: outcomeSchema, reasons: z.array(z.string()) })
      .nullable()
      .describe("What the upload answered, kept with the run; the fields above are the gate as it stands now (a later SLA policy, pin, triage or history can change it). null for runs stored before outcomes were kept."),
  })
  .describe("The CI gate of a run, now and at upload.");

export const uploadResponseSchema = z
  .object({
    id: z.string().describe("The run's id."),
    url: z.url().describe("The run's page in the dashboard."),
    project: z.string().describe("The project's slug."),
    format: z.string().describe("The format the upload was read as (detected or given)."),
    endpoints: z.array(z.string()).describe("Names of the endpoints found."),
    ...gateFieldsSchema,
    failOn: failOnSchema,
    thresholds: toolThresholdsSchema,
    comparison: gateComparisonSchema,
    grade: gradeSchema,
    budget: budgetAnswerSchema,
    comment: prCommentSchema,
    run: storedRunSchema,
  })
  .describe("A stored run with its CI gate's outcome. 201 when created; 200 when an Idempotency-Key replays an earlier upload.");

export const uploadWrapperSchema = z
  .object({
    format: z
      .enum(FORMAT_NAMES as unknown as [string, ...string[]])
      .optional()
      .describe("Format of `result`; detected when absent."),
    metadata: runMetadataSchema.optional(),
    result: z.unknown().describe("The tool's output: a JSON value as is, or text (NDJSON, CSV) as a JSON string."),
  })
  .describe("A tool's output with the run's metadata beside it.");

export const rawFileListSchema = z
  .object({
    files: z.array(
      z.object({
        file: z.number().int().describe("Pass as ?file= to download it."),
        name: z.string().nullable(),
        contentType: z.string().nullable(),
        sizeBytes: z.number().int(),
        available: z.boolean().describe("False when the retention setting dropped it."),
        url: z.string(),
      }),
    ),
  })
  .describe("The files of a multi-file upload (Locust CSVs, several ghz reports).");

// ---- Upload query ----

/** What an upload says beside its body: the query string and the Idempotency-Key header. */
export interface UploadQuery {
  /** `?format=` as given (null: detect). */
  format: string | null;
  metadata: RunMetadata;
  idempotencyKey: string | null;
  /** `?fail_on=` parsed (null: the project's setting). */
  failOn: FailOnValue[] | null;
  /** The repository's benchtrack.json sent with the upload (Benchtrack-Budget headers), validated; null or absent: none. */
  budget?: UploadedBudget | null;
}

export function parseUploadQuery(searchParams: URLSearchParams, headers: Headers): UploadQuery {
  const idempotencyKey = headers.get("idempotency-key") ?? searchParams.get("idempotency_key");
  if (idempotencyKey !== null && (idempotencyKey.length === 0 || idempotencyKey.length > 255)) {
    throw new InputError("malformed", "The idempotency key must be 1 to 255 characters", [
      { path: "header.idempotency-key", message: "bad length" },
    ]);
  }
  const format = searchParams.get("format");
  // An unknown name is a 400 listing the accepted ones, before a byte of the body is read.
  if (format !== null) resolveFormatName(format);
  return {
    format,
    metadata: parseMetadataQuery(searchParams),
    idempotencyKey,
    failOn: parseFailOn(searchParams.get("fail_on")),
    budget: parseBudgetHeaders(headers),
  };
}

// ---- Dashboard (tRPC) inputs: the resource's fields plus the project it lives in ----

/** The run report page's run. */
/** The run page's query: its project and run, and the server's public address its links and Markdown are made with (none: links relative to the server). */
export const runReportInputSchema = z.object({ project: projectSlugSchema, id: z.string().min(1).max(100), baseUrl: z.string().max(2_000).default("") });

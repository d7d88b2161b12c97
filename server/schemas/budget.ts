import { z } from "zod";
import { InputError } from "../domain/input-error";
import type { BudgetFile, BudgetSource, RunBudget } from "../domain/gate/budget";
import { INCONCLUSIVE_POLICIES } from "../domain/gate/budget";
import { slaPolicySchema } from "../domain/sla/policy";
import { alphaSchema, gateMetricSchema, minEffectPctSchema, projectSlugSchema } from "./projects";

/**
 * `benchtrack.json`, a repository's budget (docs/ci.md, "Budgets as code"): the SLA targets and gate
 * settings its runs are judged by, for every project it uploads to, per project, and per label. The CI
 * scripts send it with each upload (the Benchtrack-Budget header); the server validates it with this
 * schema, judges the run by it (server/domain/gate/budget.ts) and keeps what applied with the run. Served
 * as JSON Schema at GET /api/v1/schema/benchtrack.json, for the file's `$schema`. Unknown keys are
 * refused, so that a misspelt setting fails CI instead of silently falling back to Settings.
 */

const budgetGateSchema = z
  .object({
    metric: gateMetricSchema.optional(),
    minEffectPct: minEffectPctSchema.optional(),
    alpha: alphaSchema.optional(),
    inconclusive: z
      .enum(INCONCLUSIVE_POLICIES)
      .optional()
      .describe(
        'What an inconclusive gate does to the CI job: "pass" (a warning, the default) or "fail". BENCHTRACK_INCONCLUSIVE, when set, wins.',
      ),
  })
  .strict()
  .describe("Gate settings; each one left out is the next layer's, in the end the project's Settings.");

/** The SLA policy's schema, refusing unknown keys in the file (a misspelt "treshold" is an error, not ignored). */
const strictSlaPolicySchema = z
  .object({
    targets: z
      .array(slaPolicySchema.shape.targets.element.strict())
      .describe(slaPolicySchema.shape.targets.description ?? ""),
  })
  .strict();

const budgetLayer = {
  sla: strictSlaPolicySchema
    .optional()
    .describe(
      'SLA targets, replacing the Settings\' list whole for the runs this layer covers; { "targets": [] }: no SLA.',
    ),
  gate: budgetGateSchema.optional(),
};

const budgetLayerSchema = z.object(budgetLayer).strict();

const labelsSchema = z
  .record(z.string().min(1).max(1024), budgetLayerSchema)
  .describe('Overrides for the runs of one label (the run\'s label as stored, e.g. "nightly").');

export const budgetFileSchema = z
  .object({
    $schema: z
      .string()
      .max(2048)
      .optional()
      .describe("The JSON Schema this file follows (editors read it): <server>/api/v1/schema/benchtrack.json."),
    ...budgetLayer,
    labels: labelsSchema.optional(),
    projects: z
      .record(projectSlugSchema, z.object({ ...budgetLayer, labels: labelsSchema.optional() }).strict(), {
        error: (issue) =>
          issue.code === "invalid_key"
            ? "not a project slug: lower-case letters, digits, '.', '_' and '-', starting with a letter or digit"
            : undefined,
      })
      .optional()
      .describe("Overrides for one project (by slug), over the file's top level; its own labels override it in turn."),
  })
  .strict()
  .describe(
    "benchtrack.json: the budget a repository's runs are judged by. Most specific first, field by field: " +
      "projects.<slug>.labels.<label> › projects.<slug> › labels.<label> › the top level › the project's Settings.",
  );

export type BudgetFileInput = z.input<typeof budgetFileSchema>;

/** The budget kept with a run (runs.budget): what applied to it, and where it was read. */
export const runBudgetSchema = z.object({
  source: z.object({ path: z.string(), commit: z.string().nullable() }),
  sla: slaPolicySchema.nullable(),
  gate: budgetGateSchema,
});

/** A Git commit SHA, as the upload's `commit` takes it. */
export const budgetCommitSchema = z.string().regex(/^[0-9a-fA-F]{7,64}$/, "expected a commit SHA (7 to 64 hex digits)");

/** A path in the repository as the Benchtrack-Budget-Path header gives it (default "benchtrack.json"). */
export const budgetPathSchema = z
  .string()
  .min(1)
  .max(512)
  .refine(
    (path) => ![...path].some((character) => character.charCodeAt(0) < 0x20 || character === "\u007f"),
    "no control characters",
  );

/** What the upload answers of the budget that judged its run. */
export const budgetAnswerSchema = z
  .object({
    source: z
      .enum(["file", "settings"])
      .describe(
        '"file": a benchtrack.json sent with the upload set part or all of it; "settings": the project\'s Settings alone.',
      ),
    path: z.string().nullable().describe("The file's path in the repository; null from Settings."),
    commit: z.string().nullable().describe("The commit the file was read at; null when unknown or from Settings."),
    inconclusive: z
      .enum(INCONCLUSIVE_POLICIES)
      .nullable()
      .describe("What the file says an inconclusive gate does to the CI job; null: it does not say."),
    description: z
      .string()
      .describe('In words, as the run page says it: "Budget from benchtrack.json at 3f2a9c1", "Budget from Settings".'),
  })
  .describe(
    'The budget that judged the run: a benchtrack.json sent with the upload (docs/ci.md, "Budgets as code"), or Settings.',
  );

// Compile-time links between the domain's types and these schemas.
type Assert<T extends true> = T;
export type BudgetFileMatches = Assert<z.infer<typeof budgetFileSchema> extends BudgetFile ? true : false>;
export type RunBudgetMatches = Assert<z.infer<typeof runBudgetSchema> extends RunBudget ? true : false>;

// ---- The upload's headers ----

/** The largest budget file an upload carries (decoded): a header travels with every body, and headers are small. */
export const MAX_BUDGET_BYTES = 8 * 1024;

/** A budget sent with an upload: the file as validated, and where it was read. */
export interface UploadedBudget {
  file: BudgetFile;
  source: BudgetSource;
}

/** A JSON path as the file's author reads it: `sla.targets[0].threshold`. */
export function budgetPathOf(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (text, key) => (typeof key === "number" ? `${text}[${key}]` : text === "" ? String(key) : `${text}.${String(key)}`),
    "",
  );
}

/**
 * The budget an upload sends beside its body (docs/ci.md, "Budgets as code"): `Benchtrack-Budget`, the
 * file's bytes in base64; `Benchtrack-Budget-Path`, its path in the repository (default
 * "benchtrack.json"); `Benchtrack-Budget-Commit`, the commit it was read at. Headers, not the body: the
 * body is the tool's file as it is (a single body, streamed k6 NDJSON, or multipart), and a header rides
 * along with each of them. null without the header. Every fault is a 400 naming the header and, for the
 * file's content, the JSON path; a file too large is a 413.
 */
export function parseBudgetHeaders(headers: Headers): UploadedBudget | null {
  const encoded = headers.get("benchtrack-budget");
  const pathHeader = headers.get("benchtrack-budget-path");
  const commitHeader = headers.get("benchtrack-budget-commit");
  if (encoded === null) {
    if (pathHeader !== null || commitHeader !== null) {
      throw new InputError(
        "malformed",
        "Benchtrack-Budget-Path and Benchtrack-Budget-Commit describe a Benchtrack-Budget header, which is missing",
        [{ path: "header.benchtrack-budget", message: "send the file in base64 with them, or leave them out" }],
      );
    }
    return null;
  }
  const path = decodedHeader(pathHeader, "header.benchtrack-budget-path") ?? "benchtrack.json";
  const pathCheck = budgetPathSchema.safeParse(path);
  if (!pathCheck.success)
    throw headerError("header.benchtrack-budget-path", pathCheck.error.issues[0]?.message ?? "not a path");
  const commit = commitHeader === null ? null : commitHeader.trim();
  if (commit !== null && !budgetCommitSchema.safeParse(commit).success)
    throw headerError("header.benchtrack-budget-commit", "expected a commit SHA (7 to 64 hex digits)");

  const text = encoded.trim();
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(text) || text.length === 0)
    throw headerError("header.benchtrack-budget", "expected the file's bytes in base64");
  const bytes = Buffer.from(text.replace(/-/g, "+").replace(/_/g, "/"), "base64");
  if (bytes.length > MAX_BUDGET_BYTES) {
    throw new InputError("too_large", `${path} is larger than ${MAX_BUDGET_BYTES.toLocaleString("en-US")} bytes`, [
      { path: "header.benchtrack-budget", message: `${bytes.length} bytes decoded; at most ${MAX_BUDGET_BYTES}` },
    ]);
  }
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes).replace(/^\uFEFF/, ""));
  } catch (error) {
    throw new InputError("malformed", `${path} is not valid JSON: ${(error as Error).message}`, [
      { path: `${path}`, message: "not valid JSON (UTF-8)" },
    ]);
  }
  const parsed = budgetFileSchema.safeParse(json);
  if (!parsed.success) {
    const details = parsed.error.issues
      .slice(0, 20)
      .map((issue) => ({ path: `${path}: ${budgetPathOf(issue.path) || "(the file)"}`, message: issue.message }));
    throw new InputError(
      "malformed",
      `${path} is not a valid budget: ${details[0]!.path.slice(path.length + 2)}: ${details[0]!.message}`,
      details,
    );
  }
  return { file: parsed.data, source: { path, commit: commit?.toLowerCase() ?? null } };
}

/** A header's value, percent-decoded (a path may hold any character; a header only printable ASCII). */
function decodedHeader(value: string | null, where: string): string | null {
  if (value === null) return null;
  try {
    return decodeURIComponent(value.trim());
  } catch {
    throw headerError(where, "expected a percent-encoded path");
  }
}

function headerError(path: string, message: string): InputError {
  return new InputError("malformed", `The ${path.slice("header.".length)} header is not valid: ${message}`, [
    { path, message },
  ]);
}

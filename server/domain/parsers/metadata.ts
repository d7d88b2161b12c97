/**
 * Run metadata given beside a tool's file: in the upload wrapper `{format, metadata, result}` or as
 * query parameters (`?label=baseline&round=2&attr.db=postgres15`). It describes the run better than the
 * tool can (a k6 summary knows nothing of git), so it overrides what the file says.
 */
import { z } from "zod";
import { InputError } from "../input-error";
import type { ParsedRun } from "../run";
import { MAX_INT32 } from "./validate";
import { parseWire } from "./wire";

export const runMetadataSchema = z
  .object({
    label: z.string().min(1).max(1024).optional().describe('Free text grouping runs, e.g. "baseline".'),
    round: z.number().int().nonnegative().max(MAX_INT32).optional().describe("Round number within repeated runs."),
    branch: z.string().min(1).max(1024).optional().describe("Git branch."),
    commit: z.string().min(1).max(1024).optional().describe("Git commit SHA."),
    pr: z.number().int().positive().max(MAX_INT32).optional().describe("Pull request number."),
    build_url: z.url().max(1024).optional().describe("Link to the CI build."),
    started_at: z.iso.datetime({ offset: true }).optional().describe("ISO 8601 start time of the run."),
    attributes: z.record(z.string().max(512), z.string().max(1024)).optional().describe("Key/values for filtering."),
  })
  .describe("Run metadata; overrides what the uploaded file says.");

export type RunMetadata = z.infer<typeof runMetadataSchema>;

/** A copy of `run` with the metadata applied; attributes merge, the metadata's winning on conflicts. */
export function applyRunMetadata(run: ParsedRun, metadata: RunMetadata): ParsedRun {
  const { git, ci } = run.environment;
  return {
    ...run,
    label: metadata.label ?? run.label,
    round: metadata.round ?? run.round,
    startedAt: metadata.started_at ?? run.startedAt,
    environment: {
      ...run.environment,
      git: {
        ...git,
        branch: metadata.branch ?? git.branch,
        commit: metadata.commit ?? git.commit,
        pullRequest: metadata.pr ?? git.pullRequest,
      },
      ci: { ...ci, buildUrl: metadata.build_url ?? ci.buildUrl },
      attributes: { ...run.environment.attributes, ...metadata.attributes },
    },
  };
}

const ATTRIBUTE_PREFIX = "attr.";
const STRING_PARAMS = ["label", "branch", "commit", "build_url", "started_at"] as const;
const INTEGER_PARAMS = ["round", "pr"] as const;

/**
 * Reads metadata query parameters. Parameters that are not metadata (format, idempotency_key…) are left
 * to their owners; a metadata parameter with a bad value is an error naming `query.<param>`.
 */
export function parseMetadataQuery(searchParams: URLSearchParams): RunMetadata {
  const raw: Record<string, unknown> = {};
  for (const param of STRING_PARAMS) {
    const value = searchParams.get(param);
    if (value !== null) raw[param] = value;
  }
  for (const param of INTEGER_PARAMS) {
    const value = searchParams.get(param);
    if (value === null) continue;
    // Number("") is 0 and Number("1e3") is 1000: accept plain digits only.
    if (!/^\d+$/.test(value.trim())) {
      throw new InputError("malformed", `Query parameter ${param} must be a whole number, got "${value.slice(0, 40)}"`, [
        { path: `query.${param}`, message: "expected a whole number" },
      ]);
    }
    raw[param] = Number(value.trim());
  }
  const attributes: Record<string, string> = {};
  for (const [key, value] of searchParams) {
    if (!key.startsWith(ATTRIBUTE_PREFIX)) continue;
    const name = key.slice(ATTRIBUTE_PREFIX.length);
    if (name === "") {
      throw new InputError("malformed", "Query parameter attr. needs a key, e.g. attr.db=postgres15", [
        { path: `query.${key}`, message: "empty attribute key" },
      ]);
    }
    attributes[name] = value;
  }
  if (Object.keys(attributes).length > 0) raw.attributes = attributes;
  return parseWire(runMetadataSchema, raw, "set of metadata query parameters", "query.");
}

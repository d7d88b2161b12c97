/**
 * Run metadata given beside a tool's file: in the upload wrapper `{format, metadata, result}` or as
 * query parameters (`?label=baseline&round=2&attr.db=postgres15&config.vus=50`). It describes the run
 * better than the tool can (a k6 summary knows nothing of git), so it overrides what the file says.
 */
import { z } from "zod";
import { LOAD_LEVEL_KEYS, isLoadLevelKey } from "../capacity/load-level";
import { InputError } from "../input-error";
import type { EndpointResult, ParsedRun } from "../run";
import { commitShaSchema } from "./commit-sha";
import { FORMATS } from "./formats";
import { MAX_INT32 } from "./validate";
import { parseWire } from "./wire";


export const runMetadataSchema = z
  .object({
    label: z.string().min(1).max(1024).optional().describe('Free text grouping runs, e.g. "baseline".'),
    round: z.number().int().nonnegative().max(MAX_INT32).optional().describe("Round number within repeated runs."),
    branch: z.string().min(1).max(1024).optional().describe("Git branch."),
    commit: commitShaSchema.optional().describe("Git commit SHA (`git rev-parse HEAD`; a short SHA of 7 or more hex digits is accepted)."),
    pr: z.number().int().positive().max(MAX_INT32).optional().describe("Pull request number."),
    base_commit: commitShaSchema
      .optional()
      .describe(
        "The pull request's merge-base (`git merge-base origin/main HEAD`): the baseline is then the base branch's runs of the same series at that commit, or the nearest earlier ones when it has none. Not part of the run itself.",
      ),
    base_branch: z
      .string()
      .min(1)
      .max(1024)
      .optional()
      .describe("The branch base_commit is on (default: the project's default branch)."),
    base_time: z.iso
      .datetime({ offset: true })
      .optional()
      .describe(
        "ISO 8601 commit time of base_commit (`git show -s --format=%cI <sha>`): when no run of the base branch is at that commit, the baseline is its last runs before this time.",
      ),
    ab_job: z
      .string()
      .regex(/^[A-Za-z0-9._:@/-]{1,128}$/, "expected 1 to 128 letters, digits or . _ : @ / -")
      .optional()
      .describe(
        "A same-job A/B run (docs/ci.md, \"A/B jobs\"): the job's id, the same for every run of the job (e.g. `gh-<run id>-<attempt>-<job>`). With ab_side and ab_pair. A head run is judged against the base runs of its own job, not the series' history; base runs are never part of a series' history.",
      ),
    ab_side: z.enum(["base", "head"]).optional().describe("Which side of its A/B job the run measured: `base` (the merge-base) or `head`."),
    ab_pair: z.number().int().min(1).max(1000).optional().describe("The run's pair in its A/B job: 1, 2, … (pair k holds one base and one head run, run one after the other)."),
    build_url: z.url().max(1024).optional().describe("Link to the CI build."),
    testbed: z
      .string()
      .min(1)
      .max(256)
      .optional()
      .describe(
        "The hardware the run was measured on (e.g. `gha-ubuntu-4core`). Part of every series' identity: runs on different testbeds are never one series. Default: what a benchmark file states (Go's cpu line, pytest's machine_info, Google Benchmark's context), else none.",
      ),
    started_at: z.iso.datetime({ offset: true }).optional().describe("ISO 8601 start time of the run."),
    attributes: z.record(z.string().max(512), z.string().max(1024)).optional().describe("Key/values for filtering."),
    config: z
      .record(z.string().min(1).max(512), z.union([z.number(), z.string().max(1024), z.boolean()]))
      .superRefine((config, context) => {
        for (const [key, value] of Object.entries(config)) {
          if (isLoadLevelKey(key) && !(typeof value === "number" && value > 0)) {
            context.addIssue({ code: "custom", path: [key], message: `${key} is a load level: a positive number` });
          }
        }
      })
      .optional()
      .describe(
        `Load configuration, merged over what the file states (these win). The load level (${LOAD_LEVEL_KEYS.join(", ")}: ` +
          "positive numbers) orders runs on the capacity page; a run at another level is never a baseline. " +
          "As query parameters: config.<key>=<value>, e.g. config.vus=50 (a number is stored as a number).",
      ),
    endpoint: z
      .string()
      .min(1)
      .max(512)
      .optional()
      .describe(
        "Names the one endpoint of a report that measured a single target and does not name it (hey, vegeta, ghz CSV sent as a bare body), or renames the one it names (wrk, autocannon: the URL path).",
      ),
  })
  .superRefine((metadata, context) => {
    const given = (["ab_job", "ab_side", "ab_pair"] as const).filter((key) => metadata[key] !== undefined);
    if (given.length > 0 && given.length < 3) {
      const missing = (["ab_job", "ab_side", "ab_pair"] as const).filter((key) => metadata[key] === undefined);
      context.addIssue({ code: "custom", path: [missing[0]!], message: `an A/B run names its job, side and pair together: ${missing.join(" and ")} missing` });
    }
  })
  .describe("Run metadata; overrides what the uploaded file says.");

export type RunMetadata = z.infer<typeof runMetadataSchema>;

/** A copy of `run` with the metadata applied; attributes merge, the metadata's winning on conflicts. */
export function applyRunMetadata(run: ParsedRun, metadata: RunMetadata): ParsedRun {
  const { git, ci } = run.environment;
  return {
    ...run,
    ...(metadata.endpoint === undefined ? {} : { endpoints: [namedEndpoint(run, metadata.endpoint)] }),
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
      testbed: metadata.testbed ?? run.environment.testbed,
      config: { ...run.environment.config, ...metadata.config },
      attributes: { ...run.environment.attributes, ...metadata.attributes },
    },
  };
}

/**
 * `endpoint=<name>`: a single-target report's one endpoint, named. A report that names none (hey, vegeta)
 * has only its aggregate, which IS that endpoint's result; one that names it (wrk's URL) is renamed.
 */
function namedEndpoint(run: ParsedRun, name: string): EndpointResult {
  const only = run.endpoints.length === 1 ? run.endpoints[0] : undefined;
  // Naming the aggregate is right only where the format measures one target and says nothing of it; an
  // aggregate of several requests (artillery without its plugin, a k6 summary without sub-metrics,
  // autocannon given several URLs) is no endpoint of that name.
  if (!only && !(run.endpoints.length === 0 && FORMATS[run.format].unnamedTarget)) {
    const what =
      run.endpoints.length > 1
        ? `this report has ${run.endpoints.length} endpoints (${run.endpoints
            .slice(0, 3)
            .map((e) => e.name)
            .join(", ")}…)`
        : `this ${FORMATS[run.format].title} holds an aggregate of possibly several targets, not one`;
    throw new InputError("malformed", `endpoint= names the one target of a single-target report, but ${what}`, [
      { path: "query.endpoint", message: `${what}; leave endpoint out` },
    ]);
  }
  const source = only ?? run.aggregate;
  return {
    ...source,
    name,
    fullName: source.fullName ?? (only && only.name !== name ? only.name : null),
    protocol: source.protocol ?? run.aggregate.protocol,
  };
}

const ATTRIBUTE_PREFIX = "attr.";
const CONFIG_PREFIX = "config.";
/** A plain decimal number ("50", "12.5"): stored as a number, like the tools' own load settings. */
const PLAIN_NUMBER = /^\d+(\.\d+)?$/;
const STRING_PARAMS = [
  "label",
  "testbed",
  "branch",
  "commit",
  "build_url",
  "started_at",
  "endpoint",
  "base_commit",
  "base_branch",
  "base_time",
  "ab_job",
  "ab_side",
] as const;
const INTEGER_PARAMS = ["round", "pr", "ab_pair"] as const;

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
      throw new InputError(
        "malformed",
        `Query parameter ${param} must be a whole number, got "${value.slice(0, 40)}"`,
        [{ path: `query.${param}`, message: "expected a whole number" }],
      );
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
  const config: Record<string, string | number> = {};
  for (const [key, value] of searchParams) {
    if (!key.startsWith(CONFIG_PREFIX)) continue;
    const name = key.slice(CONFIG_PREFIX.length);
    if (name === "") {
      throw new InputError("malformed", "Query parameter config. needs a key, e.g. config.vus=50", [
        { path: `query.${key}`, message: "empty config key" },
      ]);
    }
    config[name] = PLAIN_NUMBER.test(value.trim()) ? Number(value.trim()) : value;
  }
  if (Object.keys(config).length > 0) raw.config = config;
  return parseWire(runMetadataSchema, raw, "set of metadata query parameters", "query.");
}

// The CI scripts' settings (scripts/ci/benchtrack-pr.mjs, benchtrack-ab.mjs): the BENCHTRACK_* variables,
// and what GitHub Actions or GitLab CI tell of the run (branch, commit, pull request, merge-base), or, in a
// plain shell, what git tells. Every problem is a UsageError that names the variable; no token is ever put
// in a message. See docs/ci.md.
import { execFileSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { githubForge, gitlabForge } from "./forges.mjs";

/** A setting that is missing or malformed: exit 2, nothing sent. */
export class UsageError extends Error {}

/** A git commit as CI gives it: abbreviated or whole, SHA-1 or SHA-256. */
export const COMMIT = /^[0-9a-f]{7,64}$/i;
const PULL_REQUEST_EVENTS = new Set(["pull_request", "pull_request_target"]);

/** A variable, trimmed; unset is empty. */
export const value = (env, name) => (env[name] ?? "").trim();

function required(env, name, why) {
  const text = value(env, name);
  if (text === "") throw new UsageError(`${name} is not set${why ? `: ${why}` : ""}`);
  return text;
}

/** A token as a header may carry it; never printed, even when refused. */
function token(env, name, why) {
  const text = required(env, name, why);
  if (!/^[\x21-\x7e]+$/.test(text)) {
    throw new UsageError(`${name} holds spaces or non-printable characters (it is not shown); paste the token alone`);
  }
  return text;
}

function benchtrackUrl(env) {
  const text = required(env, "BENCHTRACK_URL", "the Benchtrack server, e.g. https://bench.example.com");
  let url;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError("BENCHTRACK_URL is not a URL; expected e.g. https://bench.example.com");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw new UsageError("BENCHTRACK_URL must start with https:// or http://");
  if (url.username || url.password)
    throw new UsageError("BENCHTRACK_URL must not hold credentials; the token goes in BENCHTRACK_TOKEN");
  if (url.search || url.hash) throw new UsageError("BENCHTRACK_URL must be the server's base URL, without ? or #");
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}

/** BENCHTRACK_FILES: one path, or several (one a line, or comma-separated) sent as one multipart upload. */
function resultFiles(env) {
  const paths = required(env, "BENCHTRACK_FILES", "the result file(s) to upload")
    .split(/[\n,]/)
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const file of paths) {
    let stats;
    try {
      stats = statSync(file);
    } catch {
      throw new UsageError(
        `BENCHTRACK_FILES: ${JSON.stringify(file)} does not exist (working directory ${process.cwd()})`,
      );
    }
    if (!stats.isFile()) throw new UsageError(`BENCHTRACK_FILES: ${JSON.stringify(file)} is not a file`);
    if (stats.size === 0)
      throw new UsageError(`BENCHTRACK_FILES: ${JSON.stringify(file)} is empty: did the load test run?`);
  }
  return paths;
}

/** base_commit as given, "none" for none, or (empty) what CI can tell. */
function givenBaseCommit(env) {
  const text = value(env, "BENCHTRACK_BASE_COMMIT");
  if (text.toLowerCase() === "none") return { given: true, commit: null };
  if (text === "") return { given: false, commit: null };
  if (!COMMIT.test(text))
    throw new UsageError(
      `BENCHTRACK_BASE_COMMIT must be a commit SHA (7 to 64 hex digits) or "none", got ${JSON.stringify(text.slice(0, 80))}`,
    );
  return { given: true, commit: text.toLowerCase() };
}

function positiveInteger(text, name) {
  if (!/^\d{1,10}$/.test(text) || Number(text) === 0)
    throw new UsageError(`${name} must be a positive whole number, got ${JSON.stringify(text.slice(0, 40))}`);
  return Number(text);
}

/**
 * The merge-base of the pull request's head with the base branch, when the checkout has the history;
 * else null and why.
 */
function mergeBase(baseRef, head, cwd) {
  try {
    const out = execFileSync("git", ["merge-base", `origin/${baseRef}`, head], {
      cwd,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      timeout: 20_000,
    });
    const sha = out.trim();
    if (COMMIT.test(sha)) return { sha, problem: null };
  } catch {
    // Shallow checkout, no git, or no origin/<base>: said below.
  }
  return {
    sha: null,
    problem: `git could not find the merge-base of origin/${baseRef} and ${head.slice(0, 12)} (check out with fetch-depth: 0, or pass base-commit)`,
  };
}

/** One line of git's answer in `cwd`, or null when git fails (no repository, no such commit). */
export function gitLine(args, cwd) {
  try {
    return execFileSync("git", args, {
      cwd,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      timeout: 20_000,
    }).trim();
  } catch {
    return null;
  }
}

/**
 * The commit's time (ISO 8601), when the checkout has it: sent as base_time, so that a merge-base main
 * has no run at is compared with main's last runs before it, not before now.
 */
export function commitTime(sha, cwd) {
  try {
    const out = execFileSync("git", ["show", "-s", "--format=%cI", sha], {
      cwd,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      timeout: 20_000,
    }).trim();
    return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}([+-]\d{2}:\d{2}|Z)$/.test(out) ? out : null;
  } catch {
    return null;
  }
}

/**
 * What GitHub Actions tells: the run's metadata, the pull request (if any) and its merge-base. `baseFrom`
 * says where base_commit came from; `baseProblem` why the merge-base could not be found.
 */
function githubContext(env, base, note) {
  const eventName = value(env, "GITHUB_EVENT_NAME");
  let event = {};
  const eventPath = value(env, "GITHUB_EVENT_PATH");
  if (eventPath) {
    try {
      event = JSON.parse(readFileSync(eventPath, "utf8"));
    } catch {
      note(`Could not read the event payload at ${eventPath}; treating this run as outside a pull request.`);
    }
  }
  const pull = PULL_REQUEST_EVENTS.has(eventName) ? event?.pull_request : null;
  const pr = pull && Number.isInteger(pull.number) && pull.number > 0 ? pull.number : null;
  const headSha = typeof pull?.head?.sha === "string" && COMMIT.test(pull.head.sha) ? pull.head.sha : null;
  const server = value(env, "GITHUB_SERVER_URL") || "https://github.com";
  const repository = value(env, "GITHUB_REPOSITORY");
  const runId = value(env, "GITHUB_RUN_ID");
  let baseCommit = base.commit;
  let baseFrom = base.given ? "BENCHTRACK_BASE_COMMIT" : null;
  let baseProblem = null;
  const baseRef = value(env, "GITHUB_BASE_REF") || (typeof pull?.base?.ref === "string" ? pull.base.ref : "");
  if (!base.given && pr !== null && baseRef) {
    // Not HEAD: a pull_request checkout's HEAD is GitHub's merge commit, whose merge-base with the base
    // branch is that branch's tip today, not where the pull request started from.
    const found = mergeBase(baseRef, headSha ?? "HEAD", value(env, "GITHUB_WORKSPACE") || process.cwd());
    baseCommit = found.sha;
    baseFrom = found.sha ? `the merge-base of origin/${baseRef} and the pull request's head` : null;
    baseProblem = found.problem;
  }
  if (pr !== null && !/^[^/\s]+\/[^/\s]+$/.test(repository))
    throw new UsageError("GITHUB_REPOSITORY must be owner/name");
  const workspace = value(env, "GITHUB_WORKSPACE") || process.cwd();
  return {
    branch: value(env, "GITHUB_HEAD_REF") || value(env, "GITHUB_REF_NAME") || null,
    commit: headSha ?? (value(env, "GITHUB_SHA") || null),
    pr,
    buildUrl: repository && runId ? `${server}/${repository}/actions/runs/${runId}` : null,
    runIdentity: ["github", repository, runId, value(env, "GITHUB_RUN_ATTEMPT"), value(env, "GITHUB_JOB")],
    headSha,
    baseCommit,
    baseFrom,
    baseProblem,
    baseBranch: baseCommit && baseRef ? baseRef : null,
    baseTime: baseCommit ? commitTime(baseCommit, workspace) : null,
    forge: (redact, retries, commitStatus) =>
      pr === null
        ? null
        : githubForge({
            apiUrl: value(env, "GITHUB_API_URL") || "https://api.github.com",
            repository,
            issueNumber: pr,
            // The pull request's head, where a required check is read: not GITHUB_SHA, GitHub's merge commit.
            statusSha: commitStatus ? statusSha(headSha, "the pull_request event's pull_request.head.sha") : null,
            token: token(
              env,
              "GITHUB_TOKEN",
              "the token that writes the pull request comment (the action's github-token)",
            ),
            redact,
            retries,
          }),
  };
}

/** What GitLab CI tells: the job's metadata, the merge request (if any) and its diff base. */
function gitlabContext(env, base) {
  const iid = value(env, "CI_MERGE_REQUEST_IID");
  const mergeRequest = iid ? positiveInteger(iid, "CI_MERGE_REQUEST_IID") : null;
  const diffBase = value(env, "CI_MERGE_REQUEST_DIFF_BASE_SHA");
  const baseCommit = base.given ? base.commit : COMMIT.test(diffBase) ? diffBase.toLowerCase() : null;
  return {
    branch: value(env, "CI_MERGE_REQUEST_SOURCE_BRANCH_NAME") || value(env, "CI_COMMIT_REF_NAME") || null,
    commit: value(env, "CI_COMMIT_SHA") || null,
    pr: mergeRequest,
    buildUrl: value(env, "CI_JOB_URL") || null,
    runIdentity: ["gitlab", value(env, "CI_PROJECT_ID"), value(env, "CI_JOB_ID")],
    headSha: mergeRequest === null ? null : value(env, "CI_COMMIT_SHA") || null,
    // GitLab computes the merge request's merge-base itself.
    baseCommit,
    baseFrom: base.given ? "BENCHTRACK_BASE_COMMIT" : baseCommit ? "CI_MERGE_REQUEST_DIFF_BASE_SHA" : null,
    baseProblem: null,
    baseBranch: baseCommit ? value(env, "CI_MERGE_REQUEST_TARGET_BRANCH_NAME") || null : null,
    baseTime: baseCommit ? commitTime(baseCommit, value(env, "CI_PROJECT_DIR") || process.cwd()) : null,
    forge: (redact, retries, commitStatus) =>
      mergeRequest === null
        ? null
        : gitlabForge({
            apiUrl: required(env, "CI_API_V4_URL", "GitLab's API (set by GitLab CI)"),
            projectId:
              value(env, "CI_MERGE_REQUEST_PROJECT_ID") ||
              required(env, "CI_PROJECT_ID", "the project of the merge request (set by GitLab CI)"),
            mergeRequestIid: mergeRequest,
            statusSha: commitStatus ? statusSha(value(env, "CI_COMMIT_SHA"), "CI_COMMIT_SHA") : null,
            pipelineId: /^\d{1,15}$/.test(value(env, "CI_PIPELINE_ID")) ? Number(value(env, "CI_PIPELINE_ID")) : null,
            token: token(
              env,
              "BENCHTRACK_GITLAB_TOKEN",
              "a project access token with the api scope, to write the merge request note",
            ),
            webUrl: value(env, "CI_MERGE_REQUEST_PROJECT_URL") || value(env, "CI_PROJECT_URL") || null,
            redact,
            retries,
          }),
  };
}

/**
 * Outside CI (a plain shell): what git tells of the checkout in the working directory; no pull request,
 * so no comment and no status.
 */
function localContext(env, base) {
  const cwd = process.cwd();
  const baseCommit = base.commit;
  return {
    branch: gitLine(["symbolic-ref", "--quiet", "--short", "HEAD"], cwd) || null,
    commit: gitLine(["rev-parse", "--verify", "HEAD"], cwd) || null,
    pr: null,
    buildUrl: null,
    runIdentity: ["local"],
    headSha: null,
    baseCommit,
    baseFrom: base.given ? "BENCHTRACK_BASE_COMMIT" : null,
    baseProblem: null,
    baseBranch: null,
    baseTime: baseCommit ? commitTime(baseCommit, cwd) : null,
    forge: () => null,
  };
}

/** The commit a status is set on, as CI names it; a status without one is a configuration error. */
function statusSha(sha, where) {
  if (sha && COMMIT.test(sha)) return sha.toLowerCase();
  throw new UsageError(
    `${where} is ${sha ? "not a commit SHA" : "not set"}: the commit status needs the head commit (or set BENCHTRACK_COMMIT_STATUS=false)`,
  );
}

/** BENCHTRACK_COMMIT_STATUS: whether pull and merge request pipelines set a commit status ("true", the default, or "false"). */
function commitStatusSetting(env) {
  const text = (value(env, "BENCHTRACK_COMMIT_STATUS") || "true").toLowerCase();
  if (text !== "true" && text !== "false")
    throw new UsageError(`BENCHTRACK_COMMIT_STATUS must be "true" or "false", got ${JSON.stringify(text.slice(0, 40))}`);
  return text === "true";
}

/**
 * BENCHTRACK_INCONCLUSIVE: what an inconclusive gate does to the job, "pass" (a warning) or "fail"; null when
 * unset: then benchtrack.json's gate.inconclusive, as the server answers it, else "pass" (ci-step.mjs).
 */
function inconclusiveSetting(env) {
  const text = value(env, "BENCHTRACK_INCONCLUSIVE");
  if (text === "") return null;
  if (text !== "pass" && text !== "fail")
    throw new UsageError(`BENCHTRACK_INCONCLUSIVE must be "pass" or "fail", got ${JSON.stringify(text.slice(0, 40))}`);
  return text;
}

/**
 * Everything the run needs, checked before anything is sent; the forge is built now too, so that a
 * missing comment token (or a commit the status cannot name) is a configuration error, not a failure
 * after the upload. `mode` is github, gitlab or local (a plain shell); `files: false` when the result
 * files come from elsewhere (benchtrack-ab: the benchmark command's output), not BENCHTRACK_FILES.
 */
export function readSettings(mode, env, { redact, note }, { files = true } = {}) {
  const retriesText = value(env, "BENCHTRACK_RETRIES") || "2";
  if (!/^\d$/.test(retriesText)) throw new UsageError("BENCHTRACK_RETRIES must be a whole number from 0 to 9");
  const retries = Number(retriesText);
  const settings = {
    url: benchtrackUrl(env),
    project: required(env, "BENCHTRACK_PROJECT", "the project's slug"),
    token: token(env, "BENCHTRACK_TOKEN", "a project upload token (npm run token -- create --project <slug>)"),
    files: files ? resultFiles(env) : [],
    format: value(env, "BENCHTRACK_FORMAT"),
    label: value(env, "BENCHTRACK_LABEL"),
    testbed: value(env, "BENCHTRACK_TESTBED"),
    failOn: value(env, "BENCHTRACK_FAIL_ON"),
    inconclusive: inconclusiveSetting(env),
    commitStatus: commitStatusSetting(env),
    retries,
  };
  const base = givenBaseCommit(env);
  const ci =
    mode === "github"
      ? githubContext(env, base, note)
      : mode === "gitlab"
        ? gitlabContext(env, base)
        : localContext(env, base);
  return { ...settings, ci, forge: ci.forge(redact, retries, settings.commitStatus) };
}

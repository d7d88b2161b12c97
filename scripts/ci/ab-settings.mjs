// The options of benchtrack-ab.mjs (the A/B command) and the base it compares with: what is checked before
// anything runs. Every problem is a UsageError (exit 2). Plain Node 18+, no dependencies. See docs/ci.md,
// "A/B jobs".
import { createHash, randomBytes } from "node:crypto";
import { isShallow, resolveCommit } from "./ab-git.mjs";
import { UsageError, value } from "./ci-settings.mjs";

export const USAGE = `usage: node scripts/ci/benchtrack-ab.mjs [options] -- <command…>      (benchtrack ab)

Runs <command> in the base (the pull request's merge-base, checked out in a temporary git worktree)
and in the head (this checkout, uncommitted changes included), alternately, ABBA: pair 1 base then
head, pair 2 head then base, … Each run's result is uploaded to Benchtrack at once, as one A/B job;
after each pair the answer says whether another pair may decide, up to --max-pairs. Then the pull
request comment, the commit status and the exit code, as benchtrack-pr.

options:
  --base <rev>        the base (default: BENCHTRACK_BASE_COMMIT, else the pull or merge request's
                      merge-base, else HEAD^)
  --prepare <cmd>     a shell command run once in each tree, base first, before the runs (a build;
                      a server it starts in the background runs until the end)
  --output <file>     the result file the command writes, relative to the side's tree (default: the
                      command's stdout); repeat it for several files sent as one upload
  --max-pairs <n>     pairs at most (default 6, at most 50)
  --min-pairs <n>     pairs at least, whatever the answers say (default 1)
  --job <id>          the A/B job's id (default: from the CI run, attempt, job and label)
  --ci <where>        github, gitlab or local (default: from GITHUB_ACTIONS or GITLAB_CI)
  -h, --help          this text

The command runs in the side's tree (in the folder you started from), with BENCHTRACK_AB_SIDE=base or
head, BENCHTRACK_AB_PAIR=<n> and BENCHTRACK_AB_ROOT=<the side's tree>, without the tokens. Settings:
BENCHTRACK_URL, BENCHTRACK_PROJECT, BENCHTRACK_TOKEN, BENCHTRACK_LABEL, … (docs/ci.md); the head's
benchtrack.json (or BENCHTRACK_BUDGET) is sent with every run.
Exit codes: 0 pass (or inconclusive), 1 fail (or inconclusive with BENCHTRACK_INCONCLUSIVE=fail),
2 bad configuration (a malformed benchtrack.json too), 3 Benchtrack or the forge answered an error, 4 the command or the prepare step
failed or wrote no result.`;

const DEFAULT_MAX_PAIRS = 6;
/** The server reads at most 100 runs of a job (server/services/gate/run-gate.ts): 50 pairs. */
const MAX_PAIRS_LIMIT = 50;
/** What the server accepts as ab_job. */
const JOB_ID = /^[A-Za-z0-9._:@/-]{1,128}$/;
const FLAGS = new Set(["--base", "--prepare", "--output", "--max-pairs", "--min-pairs", "--job", "--ci"]);

/** The options before `--`, and the command after it. */
export function parseArguments(argv) {
  const options = { outputs: [], help: false };
  const split = argv.indexOf("--");
  const flags = split === -1 ? argv : argv.slice(0, split);
  const command = split === -1 ? [] : argv.slice(split + 1);
  for (let index = 0; index < flags.length; index += 1) {
    const flag = flags[index];
    if (flag === "-h" || flag === "--help") {
      options.help = true;
      continue;
    }
    const [name, inline] = flag.includes("=")
      ? [flag.slice(0, flag.indexOf("=")), flag.slice(flag.indexOf("=") + 1)]
      : [flag, null];
    if (!FLAGS.has(name))
      throw new UsageError(
        `unknown option ${JSON.stringify(flag.slice(0, 60))}${split === -1 ? " (the command goes after --)" : ""}`,
      );
    const given = inline ?? flags[(index += 1)];
    if (given === undefined) throw new UsageError(`${name} needs a value`);
    if (name === "--output") options.outputs.push(given);
    else options[name.slice(2)] = given;
  }
  if (!options.help && command.length === 0)
    throw new UsageError(`no command: give it after --, e.g. -- go test -run '^$' -bench . -count 5`);
  return { options, command };
}

function pairCount(text, name, fallback) {
  if (text === undefined) return fallback;
  if (!/^\d{1,3}$/.test(text) || Number(text) < 1 || Number(text) > MAX_PAIRS_LIMIT)
    throw new UsageError(
      `${name} must be a whole number from 1 to ${MAX_PAIRS_LIMIT} (the server reads at most 100 runs of a job), got ${JSON.stringify(text.slice(0, 40))}`,
    );
  return Number(text);
}

/**
 * The job's id, the same for every run of the job: the CI run, its attempt and the job (GitHub), or the
 * job (GitLab; a local run: the time and a random part), and the label; characters ab_job does not allow,
 * or a name too long, make it end with a hash of the whole instead.
 */
function defaultJobId(mode, env, label) {
  const parts =
    mode === "github" && value(env, "GITHUB_RUN_ID")
      ? ["gh", value(env, "GITHUB_RUN_ID"), value(env, "GITHUB_RUN_ATTEMPT") || "1", value(env, "GITHUB_JOB")]
      : mode === "gitlab" && value(env, "CI_JOB_ID")
        ? ["gl", value(env, "CI_JOB_ID")]
        : ["local", `${Date.now().toString(36)}${randomBytes(3).toString("hex")}`];
  const whole = `${parts.filter(Boolean).join("-")}${label ? `:${label}` : ""}`;
  if (JOB_ID.test(whole)) return whole;
  const hash = createHash("sha256").update(whole).digest("hex").slice(0, 10);
  return `${whole.replace(/[^A-Za-z0-9._:@/-]/g, "_").slice(0, 117)}-${hash}`;
}

/**
 * The options checked: the pairs (at least, at most), the job's id, the prepare step and the outputs.
 * `label` is the series' (BENCHTRACK_LABEL), part of the default job id.
 */
export function readAbOptions(options, mode, env, label) {
  const maxPairs = pairCount(options["max-pairs"], "--max-pairs", DEFAULT_MAX_PAIRS);
  const minPairs = pairCount(options["min-pairs"], "--min-pairs", 1);
  if (minPairs > maxPairs) throw new UsageError(`--min-pairs (${minPairs}) is more than --max-pairs (${maxPairs})`);
  if (options.prepare !== undefined && options.prepare.trim() === "") throw new UsageError("--prepare is empty");
  for (const output of options.outputs)
    if (output.trim() === "") throw new UsageError("--output is empty: name the file the command writes");
  const job = options.job ?? defaultJobId(mode, env, label);
  if (!JOB_ID.test(job))
    throw new UsageError(
      `--job must be 1 to 128 letters, digits or . _ : @ / -, got ${JSON.stringify(job.slice(0, 140))}`,
    );
  return { maxPairs, minPairs, job, prepare: options.prepare ?? null, outputs: options.outputs };
}

const short = (sha) => sha.slice(0, 12);

/** The base commit and where it came from, or a UsageError that says what to do. */
export function chooseBase(options, ci, head, env) {
  const shallow = () =>
    isShallow(head.root)
      ? " The checkout is shallow: fetch the history (actions/checkout with fetch-depth: 0; GitLab: GIT_DEPTH: 0)."
      : "";
  if (options.base !== undefined) {
    const sha = resolveCommit(options.base, head.root);
    if (!sha)
      throw new UsageError(
        `--base ${JSON.stringify(options.base.slice(0, 80))} is not a commit of this checkout.${shallow()}`,
      );
    return { sha, from: `--base ${options.base}`, branch: null };
  }
  if (value(env, "BENCHTRACK_BASE_COMMIT").toLowerCase() === "none")
    throw new UsageError(
      "BENCHTRACK_BASE_COMMIT is none: an A/B job needs a base (leave it empty for the merge-base, or pass --base)",
    );
  if (ci.baseProblem)
    throw new UsageError(`No merge-base: ${ci.baseProblem}. An A/B job runs the merge-base, so it needs it.`);
  if (ci.baseCommit) {
    const sha = resolveCommit(ci.baseCommit, head.root);
    if (!sha)
      throw new UsageError(
        `The merge-base ${short(ci.baseCommit)} (${ci.baseFrom}) is not in this checkout.${shallow() || " Fetch it (git fetch origin <base branch>)."}`,
      );
    return { sha, from: ci.baseFrom, branch: ci.baseBranch };
  }
  if (ci.pr !== null)
    throw new UsageError("No merge-base for this pull request (the event names no base branch): pass --base <rev>.");
  const parent = resolveCommit("HEAD^", head.root);
  if (!parent)
    throw new UsageError(
      isShallow(head.root)
        ? "Not a pull request, so the base is HEAD^, which this shallow checkout lacks: fetch the history (actions/checkout with fetch-depth: 0, or 2 at least), or pass --base."
        : "Not a pull request, so the base would be HEAD^, but HEAD has no parent: pass --base <rev>.",
    );
  return {
    sha: parent,
    from: "HEAD^ (not a pull request: the last commit against its parent; --base names another)",
    branch: null,
  };
}

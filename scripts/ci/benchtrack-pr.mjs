#!/usr/bin/env node
// Uploads a load-test result to Benchtrack from CI, keeps ONE living comment per pull request (GitHub)
// or merge request (GitLab) and per series, sets the head commit's status for that series (what a
// required check reads), and fails the job on the CI gate's outcome.
//
//   node scripts/ci/benchtrack-pr.mjs github    (what .github/actions/benchtrack-pr runs)
//   node scripts/ci/benchtrack-pr.mjs gitlab
//
// Plain Node 18+ (fetch), no dependencies. Configured by environment variables (docs/ci.md lists each).
// The repository's benchtrack.json (SLA targets and gate settings as code) is checked and sent with the
// upload (budget-file.mjs). Exit codes: 0 the gate passed (or was inconclusive: nothing failed, but there
// was too little to judge; BENCHTRACK_INCONCLUSIVE=fail, or benchtrack.json's "inconclusive": "fail",
// makes that 1 too), 1 it failed (after the comment and the status are written), 2 bad configuration
// (a malformed benchtrack.json too), 3 Benchtrack, GitHub or GitLab answered an error or could not be
// reached (after retries; the outcome is still printed and in the step outputs). No token is ever printed.
import { readSettings, UsageError } from "./ci-settings.mjs";
import { readBudget } from "./budget-file.mjs";
import {
  contentKey,
  EXIT,
  finishStep,
  jobLog,
  outcomeOf,
  printAnswerDetails,
  readResultFiles,
  runStep,
  uploadBody,
  uploadQuery,
  uploadRun,
} from "./ci-step.mjs";
import { ServiceCallError } from "./http.mjs";

const USAGE =
  "usage: node scripts/ci/benchtrack-pr.mjs github|gitlab   (configuration: environment variables, see docs/ci.md)";

async function main(argv, env) {
  const mode = argv[0];
  if (mode === "--help" || mode === "-h") {
    console.log(USAGE);
    return EXIT.pass;
  }
  const inGithub = mode === "github";
  const log = jobLog(env, { annotate: inGithub });
  const { redact, say, note, problem } = log;

  let config;
  try {
    if (mode !== "github" && mode !== "gitlab")
      throw new UsageError(`${mode ? `unknown mode ${JSON.stringify(mode)}` : "no mode"}; ${USAGE}`);
    config = readSettings(mode, env, { redact, note });
    config.budget = readBudget(env, { note: say });
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    problem(error.message);
    return EXIT.usage;
  }

  const { ci } = config;
  if (ci.baseProblem) note(`No base_commit: ${ci.baseProblem}.`);
  const settings = {
    format: config.format,
    label: config.label,
    testbed: config.testbed,
    branch: ci.branch,
    commit: ci.commit,
    pr: ci.pr === null ? "" : String(ci.pr),
    build_url: ci.buildUrl,
    fail_on: config.failOn,
    base_commit: ci.baseCommit,
    base_branch: ci.baseBranch,
    base_time: ci.baseTime,
  };
  const files = readResultFiles(config.files);
  const { body, headers } = uploadBody(files);

  let answer;
  try {
    ({ answer } = await uploadRun(config, {
      query: uploadQuery(settings),
      body,
      headers,
      // Same job, same files, same settings: same key, so a retried request (or a re-run step) replays the
      // stored run rather than storing it twice.
      idempotencyKey: `benchtrack-pr-${contentKey(
        config.budget
          ? [ci.runIdentity, [config.project, settings], config.budget.bytes.toString("base64")]
          : [ci.runIdentity, [config.project, settings]],
        files,
      )}`,
      userAgent: "benchtrack-pr",
      redact,
    }));
  } catch (error) {
    if (!(error instanceof ServiceCallError)) throw error;
    problem(`The upload failed, so there is no outcome, no comment and no commit status.\n${error.message}`);
    return EXIT.service;
  }

  const outcome = outcomeOf(answer);
  say(
    `Benchtrack: ${outcome.toUpperCase()} · ${answer.format ?? "?"} run ${answer.url ?? answer.id}${ci.baseCommit ? ` (base_commit ${ci.baseCommit.slice(0, 12)})` : ""}`,
  );
  printAnswerDetails(answer, log);
  return finishStep(config, answer, { log, env, mode });
}

await runStep("benchtrack-pr", main);

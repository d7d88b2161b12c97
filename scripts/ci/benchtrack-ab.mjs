#!/usr/bin/env node
// benchtrack ab: same-job A/B runs. Runs a benchmark command alternately in the pull request's merge-base
// ("base", checked out in a temporary git worktree) and in this checkout ("head"), ABBA (pair 1 base then
// head, pair 2 head then base, …), uploads each run to Benchtrack as one A/B job, and runs another pair
// while the server's answer says one may decide it, up to a budget. The gate judges the job's head runs
// against its own base runs, so a slow runner slows both sides. Then the step's ending as benchtrack-pr:
// the living PR comment, the commit status, the step outputs and the exit code, from the last answer.
//
//   node scripts/ci/benchtrack-ab.mjs [options] -- <command…>    (what .github/actions/benchtrack-ab runs)
//
// Plain Node 18+ (fetch), no dependencies. Configured by options (--help) and the environment variables
// of benchtrack-pr (docs/ci.md, "A/B jobs"). Exit codes: those of benchtrack-pr (0 pass or inconclusive,
// 1 fail, 2 bad configuration, 3 a service error), and 4 the command or the prepare step failed or wrote
// no result. No token is ever printed, nor given to the command.
import { existsSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { runCommand, stopAll } from "./ab-command.mjs";
import { addBaseWorktree, readHeadCheckout } from "./ab-git.mjs";
import { chooseBase, parseArguments, readAbOptions, USAGE } from "./ab-settings.mjs";
import { commitTime, readSettings, UsageError } from "./ci-settings.mjs";
import { readBudget } from "./budget-file.mjs";
import {
  contentKey,
  EXIT,
  finishStep,
  jobLog,
  outcomeOf,
  printAnswerDetails,
  runStep,
  uploadBody,
  uploadQuery,
  uploadRun,
} from "./ci-step.mjs";
import { ServiceCallError } from "./http.mjs";

/** The tokens a step holds: never handed to the command or the prepare step. */
const SECRET_VARIABLES = ["BENCHTRACK_TOKEN", "GITHUB_TOKEN", "BENCHTRACK_GITLAB_TOKEN"];

/** The runs' order: pair 1 base then head, pair 2 head then base, … (ABBA: a drift over the job hits both sides alike). */
const sidesOf = (pair) => (pair % 2 === 1 ? ["base", "head"] : ["head", "base"]);

const short = (sha) => sha.slice(0, 12);
const plural = (count, word) => `${count} ${word}${count === 1 ? "" : "s"}`;

/** How a command ended, in words. */
function exitStatus(ran) {
  if (ran.error) return ran.error;
  if (ran.signal) return `killed by ${ran.signal}`;
  return `exit status ${ran.code}`;
}

/** The end of a command's stderr, quoted, for an error message. */
function stderrEnd(tail) {
  const lines = tail.replace(/\r/g, "").trimEnd().split("\n").slice(-12);
  return lines.length > 0 && lines.join("").trim() !== ""
    ? `\nThe end of its stderr:\n${lines.map((line) => `  | ${line}`).join("\n")}`
    : "\nIt wrote nothing on stderr.";
}

/** The command's environment: the step's, without the tokens, with the side, the pair and the tree. */
function commandEnv(env, side, tree, pair) {
  const child = { ...env, BENCHTRACK_AB_SIDE: side, BENCHTRACK_AB_ROOT: tree };
  for (const name of SECRET_VARIABLES) delete child[name];
  if (pair === null) delete child.BENCHTRACK_AB_PAIR;
  else child.BENCHTRACK_AB_PAIR = String(pair);
  return child;
}

/** Reads a run's result: its stdout, or the --output files; an empty or missing result is null and why. */
function readResult(ran, outputs, cwd) {
  if (outputs.length === 0) {
    return ran.stdout.toString("utf8").trim() === ""
      ? { files: null, why: "it printed nothing on stdout, which is the result without --output" }
      : { files: [{ name: "stdout", bytes: ran.stdout }], why: null };
  }
  const files = [];
  for (const output of outputs) {
    const file = path.resolve(cwd, output);
    if (!existsSync(file) || !statSync(file).isFile()) return { files: null, why: `it wrote no ${output} (${file})` };
    const bytes = readFileSync(file);
    if (bytes.length === 0) return { files: null, why: `its ${output} is empty (${file})` };
    files.push({ name: output, bytes });
  }
  return { files, why: null };
}

async function main(argv, env) {
  let parsed;
  try {
    parsed = parseArguments(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`error: ${error.message}\n\n${USAGE}`);
    return EXIT.usage;
  }
  const { options, command } = parsed;
  if (options.help) {
    console.log(USAGE);
    return EXIT.pass;
  }
  const mode = options.ci ?? (env.GITHUB_ACTIONS === "true" ? "github" : env.GITLAB_CI === "true" ? "gitlab" : "local");
  const log = jobLog(env, { annotate: mode === "github" });
  const { redact, say, note, warn, problem } = log;

  let config;
  let plan;
  let head;
  let base;
  try {
    if (!["github", "gitlab", "local"].includes(mode))
      throw new UsageError(`--ci must be github, gitlab or local, got ${JSON.stringify(mode.slice(0, 40))}`);
    config = readSettings(mode, env, { redact, note }, { files: false });
    // The head's benchtrack.json judges every run of the job (base runs too): read once, before the first run.
    config.budget = readBudget(env, { note: say });
    plan = readAbOptions(options, mode, env, config.label);
    head = readHeadCheckout(process.cwd());
    if (!head) throw new UsageError(`${process.cwd()} is not in a git checkout: an A/B job runs two commits of one`);
    if (!head.commit) throw new UsageError("This checkout has no commit yet: nothing to compare");
    base = chooseBase(options, config.ci, head, env);
    const outputs = new Set(plan.outputs.map((output) => path.join(head.prefix, output)));
    head.changes = head.changes.filter((file) => !outputs.has(file));
    if (base.sha === head.commit && head.changes.length === 0)
      throw new UsageError(
        `Nothing to compare: the base (${base.from}) is HEAD, ${short(head.commit)}, and the checkout has no uncommitted change.`,
      );
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    problem(error.message);
    return EXIT.usage;
  }

  const { ci } = config;
  say(
    `Benchtrack A/B job ${plan.job}: base ${short(base.sha)} (${base.from}), head ${short(head.commit)}${head.changes.length > 0 ? " with uncommitted changes" : ""}`,
  );
  if (head.changes.length > 0) {
    const listed =
      head.changes.slice(0, 5).join(", ") + (head.changes.length > 5 ? `, … (${head.changes.length} in all)` : "");
    warn(
      `The checkout has uncommitted changes (${listed}): the head side measures them, on top of ${short(head.commit)}; the base worktree has only ${short(base.sha)}.`,
    );
  }
  // A pull_request event checks out GitHub's merge commit unless told otherwise.
  if (
    mode === "github" &&
    ci.headSha &&
    !head.commit.startsWith(ci.headSha.toLowerCase()) &&
    !ci.headSha.toLowerCase().startsWith(head.commit)
  ) {
    warn(
      `The checkout is ${short(head.commit)}, not the pull request's head ${short(ci.headSha)} (a pull_request event checks out GitHub's merge commit): the head side measures the checkout, so what the base branch gained since the merge-base counts as the pull request's. Check out the head: actions/checkout with ref: \${{ github.event.pull_request.head.sha }}.`,
    );
  }

  let worktree;
  try {
    worktree = addBaseWorktree(head.root, base.sha);
  } catch (error) {
    problem(`Could not check out the base ${short(base.sha)} in a worktree: ${error.message}`);
    return EXIT.usage;
  }
  const cleanUp = () => {
    stopAll();
    worktree.remove();
  };
  const onSignal = (signal) => {
    problem(`${signal}: stopping the command and removing the base worktree`);
    stopAll(signal === "SIGINT" ? "SIGINT" : "SIGTERM");
    worktree.remove();
    process.exit(128 + (os.constants.signals[signal] ?? 1));
  };
  const signals = ["SIGINT", "SIGTERM", "SIGHUP"];
  for (const signal of signals) process.on(signal, onSignal);
  try {
    return await runJob({ env, mode, log, config, plan, head, base, command, worktree });
  } finally {
    cleanUp();
    for (const signal of signals) process.off(signal, onSignal);
  }
}

/** The pairs, from the prepare step to the last answer, then the step's ending. */
async function runJob({ env, mode, log, config, plan, head, base, command, worktree }) {
  const { job, maxPairs, minPairs, prepare, outputs } = plan;
  const inActions = mode === "github" && env.GITHUB_ACTIONS === "true";
  const { redact, say, warn, problem } = log;
  const { ci } = config;
  const trees = { base: worktree.dir, head: head.root };
  const commits = { base: base.sha, head: head.commit };
  const cwdOf = (side) => path.join(trees[side], head.prefix);
  const group = (title) => say(inActions ? `::group::${title}` : `── ${title}`);
  const endGroup = () => inActions && say("::endgroup::");
  // A command line of several lines (the action's `command: |`) shows as its first, in titles and messages.
  const joined = command.join(" ");
  const shownCommand =
    joined.includes("\n") || joined.length > 160 ? `${joined.split("\n")[0].slice(0, 157)} …` : joined;

  say(`Base worktree: ${worktree.dir}`);
  if (head.prefix && !existsSync(cwdOf("base"))) {
    problem(
      `The folder ${head.prefix} the command starts from is not in the base ${short(base.sha)}: start it from a folder both trees have.`,
    );
    return EXIT.usage;
  }
  if (prepare !== null) {
    for (const side of ["base", "head"]) {
      group(`prepare · ${side} (${short(commits[side])})`);
      const ran = await runCommand({
        shell: prepare,
        cwd: cwdOf(side),
        env: commandEnv(env, side, trees[side], null),
        keepGroup: true,
      });
      endGroup();
      if (ran.error || ran.code !== 0) {
        problem(`The prepare step failed on the ${side} side (${exitStatus(ran)}): ${prepare}\nIts output is above.`);
        return EXIT.command;
      }
      say(`prepare · ${side}: ${ran.seconds.toFixed(1)} s`);
    }
  }

  const baseTime = commitTime(base.sha, head.root);
  let answer = null;
  let anyNew = false;
  let stopped = null;
  let pair = 1;
  for (; pair <= maxPairs; pair += 1) {
    for (const side of sidesOf(pair)) {
      const cwd = cwdOf(side);
      for (const output of outputs) rmSync(path.resolve(cwd, output), { force: true });
      group(`pair ${pair} · ${side} (${short(commits[side])}): ${shownCommand}`);
      const ran = await runCommand({
        argv: command,
        cwd,
        env: commandEnv(env, side, trees[side], pair),
        captureStdout: outputs.length === 0,
      });
      endGroup();
      if (ran.error || ran.code !== 0) {
        problem(
          `The benchmark command failed on the ${side} side, pair ${pair} (${exitStatus(ran)}): ${shownCommand}${stderrEnd(ran.stderrTail)}`,
        );
        return EXIT.command;
      }
      const result = readResult(ran, outputs, cwd);
      if (result.files === null) {
        problem(
          `The benchmark command wrote no result on the ${side} side, pair ${pair}: ${result.why}. Nothing to upload.`,
        );
        return EXIT.command;
      }
      const settings = {
        format: config.format,
        label: config.label,
        testbed: config.testbed,
        branch: ci.branch,
        commit: commits[side],
        pr: ci.pr === null ? "" : String(ci.pr),
        build_url: ci.buildUrl,
        fail_on: config.failOn,
        base_commit: base.sha,
        base_branch: base.branch,
        base_time: baseTime,
        ab_job: job,
        ab_side: side,
        ab_pair: String(pair),
        "attr.worktree": side === "head" && head.changes.length > 0 ? "uncommitted changes" : "",
      };
      const { body, headers } = uploadBody(result.files);
      let replayed;
      try {
        ({ answer, replayed } = await uploadRun(config, {
          query: uploadQuery(settings),
          body,
          headers,
          // One key per run of the job: a retried request stores it once.
          idempotencyKey: `benchtrack-ab-${contentKey(
            config.budget
              ? [config.project, job, side, pair, config.budget.bytes.toString("base64")]
              : [config.project, job, side, pair],
            result.files,
          )}`,
          userAgent: "benchtrack-ab",
          redact,
        }));
      } catch (error) {
        if (!(error instanceof ServiceCallError)) throw error;
        problem(`The upload of pair ${pair}'s ${side} run failed, so the job stops here.\n${error.message}`);
        return EXIT.service;
      }
      const ab = answer.ab;
      if (!ab || typeof ab.next !== "string") {
        problem("Benchtrack: the upload's answer has no `ab`: this server predates A/B jobs, upgrade it.");
        return EXIT.service;
      }
      say(
        `pair ${pair} · ${side}: ${ran.seconds.toFixed(1)} s, run ${answer.url ?? answer.id}${replayed ? " (the same result was uploaded before: its run)" : ""}: ${outcomeOf(answer)} · ${ab.reason}`,
      );
      anyNew ||= !replayed;
    }
    const ab = answer.ab;
    // A replayed run answers the job as it stands, which may be further on than this step.
    if (ab.pairs !== pair && anyNew)
      warn(
        `The server counts ${plural(ab.pairs, "complete pair")} in job ${job}, this step made ${pair}: was the job id used before (--job)?`,
      );
    if (ab.next === "stop") {
      if (pair >= minPairs) {
        stopped = `the answer stands (${ab.reason})`;
        break;
      }
      say(`The answer would stand (${ab.reason}), but --min-pairs asks for ${minPairs}: another pair.`);
    }
  }
  pair = Math.min(pair, maxPairs);
  if (stopped === null)
    stopped =
      answer.ab.next === "stop"
        ? `the answer stands (${answer.ab.reason})`
        : `the budget of ${plural(maxPairs, "pair")} (--max-pairs) is spent while undecided (${answer.ab.reason})`;

  const outcome = outcomeOf(answer);
  say(
    `Benchtrack: ${outcome.toUpperCase()} · ${answer.format ?? "?"} run ${answer.url ?? answer.id} (A/B job ${job}: ${plural(pair, "pair")}, base ${short(base.sha)})`,
  );
  printAnswerDetails(answer, log);
  say(`Stopped after ${plural(pair, "pair")}: ${stopped}.`);
  return finishStep(config, answer, { log, env, mode, extraOutputs: { pairs: pair, "ab-job": job } });
}

await runStep("benchtrack-ab", main);

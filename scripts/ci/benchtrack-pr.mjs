#!/usr/bin/env node
// Uploads a load-test result to Benchtrack from CI, keeps ONE living comment per pull request (GitHub)
// or merge request (GitLab) and per series, sets the head commit's status for that series (what a
// required check reads), and fails the job on the CI gate's outcome.
//
//   node scripts/ci/benchtrack-pr.mjs github    (what .github/actions/benchtrack-pr runs)
//   node scripts/ci/benchtrack-pr.mjs gitlab
//
// Plain Node 18+ (fetch), no dependencies. Configured by environment variables (docs/ci.md lists each).
// Exit codes: 0 the gate passed (or was inconclusive: nothing failed, but there was too little to judge;
// BENCHTRACK_INCONCLUSIVE=fail makes that 1 too), 1 it failed (after the comment and the status are
// written), 2 bad configuration, 3 Benchtrack, GitHub or GitLab answered an error or could not be reached
// (after retries; the outcome is still printed and in the step outputs). No token is ever printed.
import { createHash } from "node:crypto";
import { appendFileSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { readSettings, UsageError, value } from "./ci-settings.mjs";
import { commitStatusOf } from "./commit-status.mjs";
import { redactor, sendJson, ServiceCallError } from "./http.mjs";
import { upsertLivingComment } from "./living-comment.mjs";

const EXIT = { pass: 0, fail: 1, usage: 2, service: 3 };
const USAGE =
  "usage: node scripts/ci/benchtrack-pr.mjs github|gitlab   (configuration: environment variables, see docs/ci.md)";
/** A single file at least this large is sent gzip-compressed (k6 NDJSON compresses ~35×). */
const GZIP_FROM_BYTES = 1024 * 1024;

/** The upload's body: the file as it is (gzip-compressed when large), or several as multipart. */
function uploadBody(files) {
  if (files.length === 1) {
    const bytes = readFileSync(files[0]);
    return bytes.length >= GZIP_FROM_BYTES
      ? { body: gzipSync(bytes), headers: { "Content-Encoding": "gzip" }, parts: [bytes] }
      : { body: bytes, headers: {}, parts: [bytes] };
  }
  const form = new FormData();
  const parts = files.map((file) => readFileSync(file));
  files.forEach((file, index) => form.append(`file${index + 1}`, new Blob([parts[index]]), path.basename(file)));
  return { body: form, headers: {}, parts };
}

/**
 * Same job, same files, same settings: same key, so a retried request (or a re-run step) replays the
 * stored run rather than storing it twice.
 */
function idempotencyKey(identity, settings, files, parts) {
  const hash = createHash("sha256").update(JSON.stringify([identity, settings]));
  files.forEach((file, index) => hash.update(`\0${path.basename(file)}\0`).update(parts[index]));
  return `benchtrack-pr-${hash.digest("hex").slice(0, 40)}`;
}

const OUTCOMES = ["pass", "fail", "inconclusive"];

/** The answer must carry what the comment needs; an older server lacks `comment` (and says only `verdict`). */
function checkAnswer(answer) {
  const comment = answer?.comment;
  const outcome = answer?.outcome ?? answer?.verdict;
  if (typeof answer?.id !== "string" || !OUTCOMES.includes(outcome)) {
    throw new ServiceCallError("Benchtrack: the upload's answer has no id or outcome", null);
  }
  if (
    !comment ||
    typeof comment.markdown !== "string" ||
    typeof comment.marker !== "string" ||
    !/^<!-- benchtrack:[^\n<>]* -->$/.test(comment.marker)
  ) {
    throw new ServiceCallError(
      "Benchtrack: the upload's answer has no PR comment (`comment`); this server predates the living PR comment, upgrade it",
      null,
    );
  }
  return answer;
}

function githubAnnotation(kind, text) {
  return `::${kind} title=Benchtrack::${text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A")}`;
}

/**
 * The head commit's status for this series, after the comment: what a required check reads. A status that
 * could not be set (after retries) is exit 3, as a comment that could not be written: the gate's outcome
 * is printed either way, and a required check that never arrives would block the merge without a word.
 */
async function setCommitStatus(config, answer, outcome, { say, problem }) {
  const status = commitStatusOf(answer, { inconclusive: config.inconclusive });
  const forge = config.forge;
  if (status.context === null) {
    problem(`The result is uploaded (outcome ${outcome}), but its comment marker names no series: no commit status is set.`);
    return EXIT.service;
  }
  try {
    const set = await forge.setStatus(status);
    say(
      `Set the ${forge.name} commit status ${status.context} on ${forge.statusSha.slice(0, 12)}: ${set.state} (${status.description})`,
    );
    return EXIT.pass;
  } catch (error) {
    if (!(error instanceof ServiceCallError)) throw error;
    problem(
      `The result is uploaded (outcome ${outcome}), but the ${forge.name} commit status ${status.context} could not be set.\n${error.message}`,
    );
    return EXIT.service;
  }
}

async function main(argv, env) {
  const mode = argv[0];
  if (mode === "--help" || mode === "-h") {
    console.log(USAGE);
    return EXIT.pass;
  }
  const inGithub = mode === "github";
  const secrets = [env.BENCHTRACK_TOKEN, env.GITHUB_TOKEN, env.BENCHTRACK_GITLAB_TOKEN].map((secret) =>
    (secret ?? "").trim(),
  );
  const redact = redactor(secrets);
  const say = (text) => console.log(redact(text));
  const note = (text) =>
    console.log(redact(inGithub && env.GITHUB_ACTIONS === "true" ? githubAnnotation("notice", text) : text));
  const warn = (text) =>
    console.log(redact(inGithub && env.GITHUB_ACTIONS === "true" ? githubAnnotation("warning", text) : `warning: ${text}`));
  const problem = (text) =>
    console.error(
      redact(inGithub && env.GITHUB_ACTIONS === "true" ? githubAnnotation("error", text) : `error: ${text}`),
    );

  let config;
  try {
    if (mode !== "github" && mode !== "gitlab")
      throw new UsageError(`${mode ? `unknown mode ${JSON.stringify(mode)}` : "no mode"}; ${USAGE}`);
    config = readSettings(mode, env, { redact, note });
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    problem(error.message);
    return EXIT.usage;
  }

  const { ci } = config;
  const query = new URLSearchParams();
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
  for (const [name, setting] of Object.entries(settings)) if (setting) query.set(name, setting);
  const { body, headers, parts } = uploadBody(config.files);
  const uploadUrl = `${config.url}/api/v1/projects/${encodeURIComponent(config.project)}/runs?${query}`;

  let answer;
  try {
    const uploaded = await sendJson("Benchtrack", {
      method: "POST",
      url: uploadUrl,
      headers: {
        ...headers,
        Authorization: `Bearer ${config.token}`,
        Accept: "application/json",
        "Idempotency-Key": idempotencyKey(ci.runIdentity, [config.project, settings], config.files, parts),
        "User-Agent": "benchtrack-pr",
      },
      body,
      timeoutMs: 300_000,
      retries: config.retries,
      redact,
      hint: (status) =>
        status === 401 || status === 403
          ? `BENCHTRACK_TOKEN must be an upload token of project "${config.project}" (or the admin token).`
          : status === 404
            ? `No project "${config.project}" on ${config.url}: create it (npm run token -- create --project ${config.project}) or check BENCHTRACK_PROJECT.`
            : null,
    });
    answer = checkAnswer(uploaded.json);
  } catch (error) {
    if (!(error instanceof ServiceCallError)) throw error;
    problem(`The upload failed, so there is no outcome, no comment and no commit status.\n${error.message}`);
    return EXIT.service;
  }

  const outcome = answer.outcome ?? answer.verdict;
  const failed = outcome === "fail" || (outcome === "inconclusive" && config.inconclusive === "fail");
  say(
    `Benchtrack: ${outcome.toUpperCase()} · ${answer.format ?? "?"} run ${answer.url ?? answer.id}${ci.baseCommit ? ` (base_commit ${ci.baseCommit.slice(0, 12)})` : ""}`,
  );
  for (const reason of answer.reasons ?? []) say(`  - ${reason}`);
  for (const line of answer.notes ?? []) say(`  · ${line}`);
  if (answer.comparison?.url) say(`  comparison: ${answer.comparison.url}`);

  // `verdict` stays as an output for workflows written before `outcome`.
  const outputs = { outcome, verdict: outcome, "run-id": answer.id, "run-url": answer.url ?? "", "comment-url": "" };
  let exit = failed ? EXIT.fail : EXIT.pass;
  if (config.forge === null) {
    note(
      `Not a ${inGithub ? "pull request" : "merge request"} pipeline: the result is uploaded, no comment is written${config.commitStatus ? " and no commit status is set" : ""}.`,
    );
  } else {
    try {
      const written = await upsertLivingComment(config.forge, {
        marker: answer.comment.marker,
        runId: answer.id,
        markdown: answer.comment.markdown,
      });
      outputs["comment-url"] = written.url ?? "";
      say(
        `${written.action === "created" ? "Created" : "Updated"} the ${config.forge.name} comment on ${config.forge.target}${written.url ? `: ${written.url}` : ""}`,
      );
    } catch (error) {
      if (!(error instanceof ServiceCallError)) throw error;
      problem(
        `The result is uploaded (outcome ${outcome}), but the ${config.forge.name} comment could not be written.\n${error.message}`,
      );
      exit = EXIT.service;
    }
    if (config.commitStatus) exit = Math.max(exit, await setCommitStatus(config, answer, outcome, { say, problem }));
  }

  if (inGithub && value(env, "GITHUB_OUTPUT")) {
    appendFileSync(
      value(env, "GITHUB_OUTPUT"),
      Object.entries(outputs)
        .map(([name, output]) => `${name}=${String(output).replace(/[\r\n]/g, " ")}\n`)
        .join(""),
    );
  }
  if (inGithub && value(env, "GITHUB_STEP_SUMMARY"))
    appendFileSync(value(env, "GITHUB_STEP_SUMMARY"), `${answer.comment.markdown}\n`);
  if (outcome === "fail") problem(`Benchtrack FAIL: ${(answer.reasons ?? []).join("; ") || "see the run"}`);
  if (outcome === "inconclusive") {
    const why = (answer.reasons ?? []).join("; ") || "see the run";
    if (failed) problem(`Benchtrack INCONCLUSIVE (BENCHTRACK_INCONCLUSIVE=fail): ${why}`);
    else warn(`Benchtrack INCONCLUSIVE: nothing failed, but the gate could not judge: ${why}`);
  }
  return exit;
}

try {
  process.exitCode = await main(process.argv.slice(2), process.env);
} catch (error) {
  // A bug of this script, not of the configuration or a service; still no secret in what is printed.
  const secrets = [process.env.BENCHTRACK_TOKEN, process.env.GITHUB_TOKEN, process.env.BENCHTRACK_GITLAB_TOKEN].map(
    (secret) => (secret ?? "").trim(),
  );
  console.error(redactor(secrets)(`benchtrack-pr failed unexpectedly: ${error?.stack ?? error}`));
  process.exitCode = EXIT.service;
}

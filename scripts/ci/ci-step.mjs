// What the CI commands (benchtrack-pr.mjs, benchtrack-ab.mjs) share around an upload: the job log (every
// line redacted, GitHub annotations in GitHub Actions), the upload call and the check of its answer, and
// the step's ending once the gate has answered: the living comment, the commit status, the step outputs,
// the job summary and the exit code. Plain Node 18+, no dependencies. See docs/ci.md.
import { createHash } from "node:crypto";
import { appendFileSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { value } from "./ci-settings.mjs";
import { commitStatusOf } from "./commit-status.mjs";
import { redactor, sendJson, ServiceCallError } from "./http.mjs";
import { upsertLivingComment } from "./living-comment.mjs";
import { budgetHeaders } from "./budget-file.mjs";

/**
 * Exit codes: 0 the gate passed (or was inconclusive, unless BENCHTRACK_INCONCLUSIVE=fail), 1 it failed,
 * 2 bad configuration, 3 a service answered an error or could not be reached, 4 (benchtrack-ab) the
 * benchmark command or the prepare step failed or wrote no result.
 */
export const EXIT = { pass: 0, fail: 1, usage: 2, service: 3, command: 4 };

/** The secrets a step may hold: never printed. */
export function secretsOf(env) {
  return [env.BENCHTRACK_TOKEN, env.GITHUB_TOKEN, env.BENCHTRACK_GITLAB_TOKEN].map((secret) => (secret ?? "").trim());
}

function githubAnnotation(kind, text) {
  return `::${kind} title=Benchtrack::${text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A")}`;
}

/**
 * The job log: `say` a line, `note` a notice, `warn` a warning, `problem` an error (stderr); in GitHub
 * Actions the last three are annotations. Every line has the secrets blanked out.
 */
export function jobLog(env, { annotate }) {
  const redact = redactor(secretsOf(env));
  const inActions = annotate && env.GITHUB_ACTIONS === "true";
  return {
    redact,
    say: (text) => console.log(redact(text)),
    note: (text) => console.log(redact(inActions ? githubAnnotation("notice", text) : text)),
    warn: (text) => console.log(redact(inActions ? githubAnnotation("warning", text) : `warning: ${text}`)),
    problem: (text) => console.error(redact(inActions ? githubAnnotation("error", text) : `error: ${text}`)),
  };
}

/** A single file at least this large is sent gzip-compressed (k6 NDJSON compresses ~35×). */
const GZIP_FROM_BYTES = 1024 * 1024;

/**
 * The upload's body from its files' contents (`{ name, bytes }`): one as it is (gzip-compressed when
 * large), several as multipart.
 */
export function uploadBody(files) {
  if (files.length === 1) {
    const { bytes } = files[0];
    return bytes.length >= GZIP_FROM_BYTES
      ? { body: gzipSync(bytes), headers: { "Content-Encoding": "gzip" } }
      : { body: bytes, headers: {} };
  }
  const form = new FormData();
  files.forEach(({ name, bytes }, index) => form.append(`file${index + 1}`, new Blob([bytes]), path.basename(name)));
  return { body: form, headers: {} };
}

/** Result files read from disk, as `uploadBody` takes them. */
export const readResultFiles = (files) => files.map((file) => ({ name: file, bytes: readFileSync(file) }));

/** A hash of an identity (JSON) and files' names and bytes: what an Idempotency-Key is made of. */
export function contentKey(identity, files) {
  const hash = createHash("sha256").update(JSON.stringify(identity));
  for (const { name, bytes } of files) hash.update(`\0${path.basename(name)}\0`).update(bytes);
  return hash.digest("hex").slice(0, 40);
}

/** The upload's query: each setting only when known. */
export function uploadQuery(settings) {
  const query = new URLSearchParams();
  for (const [name, setting] of Object.entries(settings)) if (setting) query.set(name, String(setting));
  return query;
}

const OUTCOMES = ["pass", "fail", "inconclusive"];

/** The answer must carry what the comment needs; an older server lacks `comment` (and says only `verdict`). */
export function checkAnswer(answer) {
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

/**
 * POST /api/v1/projects/<project>/runs with the project's token and an Idempotency-Key (so it is retried
 * like a read), and the answer checked; `replayed` when the key was seen before and the server answered
 * the run it stored then (200). A refusal or an unreachable server is a ServiceCallError that says what to
 * fix for 401, 403 and 404.
 */
export async function uploadRun(config, { query, body, headers, idempotencyKey, userAgent, redact }) {
  const uploaded = await sendJson("Benchtrack", {
    method: "POST",
    url: `${config.url}/api/v1/projects/${encodeURIComponent(config.project)}/runs?${query}`,
    headers: {
      ...headers,
      // The repository's benchtrack.json (budget-file.mjs), when there is one: it judges this run.
      ...budgetHeaders(config.budget),
      Authorization: `Bearer ${config.token}`,
      Accept: "application/json",
      "Idempotency-Key": idempotencyKey,
      "User-Agent": userAgent,
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
  return { answer: checkAnswer(uploaded.json), replayed: uploaded.response.status === 200 };
}

/** pass, fail or inconclusive (`verdict` from a server written before `outcome`). */
export const outcomeOf = (answer) => answer.outcome ?? answer.verdict;

/** The answer's reasons, notes and comparison link, one a line, after its headline. */
export function printAnswerDetails(answer, { say }) {
  for (const reason of answer.reasons ?? []) say(`  - ${reason}`);
  for (const line of answer.notes ?? []) say(`  · ${line}`);
  if (answer.comparison?.url) say(`  comparison: ${answer.comparison.url}`);
}

/**
 * The head commit's status for this series, after the comment: what a required check reads. A status that
 * could not be set (after retries) is exit 3, as a comment that could not be written: the gate's outcome
 * is printed either way, and a required check that never arrives would block the merge without a word.
 */
async function setCommitStatus(config, answer, outcome, { say, problem }) {
  const status = commitStatusOf(answer, { inconclusive: inconclusivePolicy(config, answer).policy });
  const forge = config.forge;
  if (status.context === null) {
    problem(
      `The result is uploaded (outcome ${outcome}), but its comment marker names no series: no commit status is set.`,
    );
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

/**
 * The step's ending, once the gate has answered: the living comment and the commit status (in pull and
 * merge request pipelines), the step outputs and the job summary (GitHub Actions), the outcome as an
 * annotation, and the exit code: 1 on fail (and on inconclusive with BENCHTRACK_INCONCLUSIVE=fail), 3 when
 * the comment or the status could not be written, else 0.
 *
 * @param {{ mode: "github" | "gitlab" | "local", extraOutputs?: Record<string, string | number> }} options extraOutputs: step outputs besides outcome, verdict, run-id, run-url and comment-url
 */
export async function finishStep(config, answer, { log, env, mode, extraOutputs = {} }) {
  const inGithub = mode === "github";
  const { say, note, warn, problem } = log;
  const outcome = outcomeOf(answer);
  const inconclusive = inconclusivePolicy(config, answer);
  const failed = outcome === "fail" || (outcome === "inconclusive" && inconclusive.policy === "fail");
  // `verdict` stays as an output for workflows written before `outcome`.
  const outputs = {
    outcome,
    verdict: outcome,
    "run-id": answer.id,
    "run-url": answer.url ?? "",
    "comment-url": "",
    ...extraOutputs,
  };
  let exit = failed ? EXIT.fail : EXIT.pass;
  if (config.forge === null) {
    const where =
      { github: "Not a pull request pipeline", gitlab: "Not a merge request pipeline" }[mode] ?? "Outside CI";
    note(
      `${where}: the result is uploaded, no comment is written${config.commitStatus ? " and no commit status is set" : ""}.`,
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
    if (failed) problem(`Benchtrack INCONCLUSIVE (${inconclusive.from}): ${why}`);
    else warn(`Benchtrack INCONCLUSIVE: nothing failed, but the gate could not judge: ${why}`);
  }
  return exit;
}

/**
 * What an inconclusive gate does to the job, and who said so: BENCHTRACK_INCONCLUSIVE when set (the
 * job's own setting), else the budget that judged the run (benchtrack.json's gate.inconclusive, as the
 * server answered it for the run's project and label), else pass.
 */
export function inconclusivePolicy(config, answer) {
  if (config.inconclusive)
    return { policy: config.inconclusive, from: `BENCHTRACK_INCONCLUSIVE=${config.inconclusive}` };
  const budget = answer?.budget;
  if (budget?.inconclusive === "pass" || budget?.inconclusive === "fail")
    return {
      policy: budget.inconclusive,
      from: `inconclusive: ${budget.inconclusive} in ${budget.path ?? "benchtrack.json"}`,
    };
  return { policy: "pass", from: "the default" };
}

/**
 * Runs a step's main and sets the exit code; an exception that is no configuration or service error is a
 * bug of the script: exit 3, printed with its stack, still without a secret.
 */
export async function runStep(name, main) {
  try {
    process.exitCode = await main(process.argv.slice(2), process.env);
  } catch (error) {
    console.error(redactor(secretsOf(process.env))(`${name} failed unexpectedly: ${error?.stack ?? error}`));
    process.exitCode = EXIT.service;
  }
}

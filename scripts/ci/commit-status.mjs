// The commit status of scripts/ci/benchtrack-pr.mjs: what a pull request's required check shows, one per
// project and series (as the living comment), set on the head commit after the upload. This module only
// decides what the status says; forges.mjs sends it. See docs/ci.md, "Commit status".

/** GitHub refuses a longer description (422 "description is too long (maximum is 140 characters)"). */
export const DESCRIPTION_LIMIT = 140;
/** GitLab refuses a longer target_url (and name, ref, description); GitHub documents no limit: one rule serves both. */
export const TARGET_URL_LIMIT = 255;

const MARKER = /^<!-- benchtrack:([^:\s<>]+):([^\n<>]*) -->$/;
const HEADLINE = /^#{1,6}\s+\S+\s+Benchtrack: \*\*(?:PASS|FAIL|INCONCLUSIVE)\*\*:\s*(.+)$/;

/**
 * The status's name, `benchtrack/<project>/<series>`, read from the comment's marker
 * (`<!-- benchtrack:<project>:<series> -->`): one status per living comment, so several series are several
 * checks, and two projects' series of the same name in one repository never overwrite each other.
 * Null when the marker is not one (checked before, by the script).
 */
export function statusContext(marker) {
  const match = MARKER.exec(marker ?? "");
  return match ? `benchtrack/${match[1]}/${match[2]}` : null;
}

/** A text cut to `limit` characters (code points, as GitHub counts them), ending with … when cut. */
export function truncate(text, limit) {
  const characters = [...text];
  return characters.length <= limit ? text : `${characters.slice(0, limit - 1).join("")}…`;
}

/**
 * What decided the outcome in a few words: the comment's first line after the outcome
 * ("2 endpoints regressed · SLA grade D"), which the server writes with no user text (docs/ci.md).
 */
function headlineSummary(markdown) {
  const first = (markdown ?? "")
    .split(/\r?\n/)
    .map((line) => line.trim())
    .find((line) => line !== "" && !line.startsWith("<!--"));
  return (
    HEADLINE.exec(first ?? "")?.[1]
      ?.replace(/\*\*|`/g, "")
      .trim() ?? ""
  );
}

/**
 * The commit status of an upload's answer. `state` is success or failure: a pass succeeds, a fail fails,
 * an inconclusive gate succeeds unless `inconclusive` is "fail" (BENCHTRACK_INCONCLUSIVE), and its
 * description then starts "inconclusive:" either way, so nobody takes it for a pass. `targetUrl` is the
 * run's page: it shows the gate's outcome as the status reports it, and links the comparison. Not the
 * comparison itself: its link names every run compared, past GitLab's 255 characters from about six runs
 * (a baseline holds up to 30), so it would link one page or the other by the baseline's size.
 *
 * @param {{ outcome?: string, verdict?: string, url?: string, reasons?: string[], failOn?: string[], comment: { marker: string, markdown: string } }} answer
 * @param {{ inconclusive: "pass" | "fail" }} settings
 * @returns {{ state: "success" | "failure", context: string | null, description: string, targetUrl: string | null }}
 */
export function commitStatusOf(answer, { inconclusive }) {
  const outcome = answer.outcome ?? answer.verdict;
  const reasons = (answer.reasons ?? []).join("; ");
  const summary = headlineSummary(answer.comment.markdown);
  let state;
  let description;
  if (outcome === "fail") {
    state = "failure";
    description = `fail: ${summary || reasons || "see the run"}`;
  } else if (outcome === "inconclusive") {
    state = inconclusive === "fail" ? "failure" : "success";
    // The reasons in full say what would decide ("2 more rounds of the head"); the summary only which kind.
    description = `inconclusive: ${reasons || summary || "see the run"}`;
  } else {
    state = "success";
    description =
      Array.isArray(answer.failOn) && answer.failOn.length === 0
        ? "pass: fail_on=none, nothing can fail"
        : "pass: nothing failed";
  }
  const targetUrl = typeof answer.url === "string" && answer.url.length <= TARGET_URL_LIMIT ? answer.url : null;
  return {
    state,
    context: statusContext(answer.comment.marker),
    description: truncate(description.replace(/\s+/g, " "), DESCRIPTION_LIMIT),
    targetUrl,
  };
}

// The living pull-request comment, shared by the GitHub and GitLab modes of scripts/ci/benchtrack-pr.mjs:
// one comment per pull request and series, found again by the hidden marker Benchtrack's upload answer
// names, holding this push's result and, folded in <details>, the earlier pushes' results, newest first,
// bounded so it stays under GitHub's 65,536 characters. The layout is documented in docs/ci.md.
//
// Benchtrack renders every result's Markdown (and escapes the text it did not write, so no line of a
// result can look like one of the lines below); this module only arranges results.

/** GitHub's largest comment body, in characters (GitLab allows 1,000,000: the lower bound serves both). */
export const COMMENT_LIMIT = 65_536;
/** What we fill at most: GitHub counts characters its own way, so keep a margin. */
export const COMMENT_BUDGET = COMMENT_LIMIT - 1_536;
/** Earlier results kept at most, however short. */
export const MAX_HISTORY = 20;

const ENTRY_OPEN = /^<!-- benchtrack:entry run=([A-Za-z0-9_-]{1,64}) -->$/;
const ENTRY_CLOSE = "<!-- /benchtrack:entry -->";
const CUT_NOTE = "_…cut to fit in one comment: the run's page has everything._";

const lines = (text) => text.replace(/\r\n?/g, "\n").split("\n");

/** Whether a comment is the one of this marker: the marker on a line of its own (a quote of it is not). */
export function hasMarker(body, marker) {
  return typeof body === "string" && lines(body).some((line) => line.trim() === marker);
}

/**
 * The results a living comment holds, in its order: this push's first, then the earlier ones newest
 * first. Text outside the entry delimiters (the <details> frame, the marker, a person's edits) is not a
 * result and is dropped on the next update.
 *
 * @returns {{ runId: string, markdown: string }[]}
 */
export function parseEntries(body) {
  const entries = [];
  let open = null;
  for (const line of lines(body ?? "")) {
    const start = ENTRY_OPEN.exec(line.trim());
    if (start) {
      open = { runId: start[1], lines: [] };
    } else if (line.trim() === ENTRY_CLOSE && open) {
      entries.push({ runId: open.runId, markdown: open.lines.join("\n").trim() });
      open = null;
    } else if (open) {
      open.lines.push(line);
    }
  }
  return entries;
}

/** A result's Markdown as the comment keeps it: without the marker line Benchtrack ends it with. */
export function entryMarkdown(markdown, marker) {
  return lines(markdown)
    .filter((line) => line.trim() !== marker)
    .join("\n")
    .trim();
}

const renderEntry = ({ runId, markdown }) => [`<!-- benchtrack:entry run=${runId} -->`, "", markdown, "", ENTRY_CLOSE];

function render(marker, current, history) {
  const parts = [...renderEntry(current), ""];
  if (history.length > 0) {
    parts.push(
      "<details>",
      `<summary>Earlier results on this pull request (${history.length}, newest first)</summary>`,
      "",
    );
    for (const entry of history) parts.push(...renderEntry(entry), "");
    parts.push("</details>", "");
  }
  parts.push(marker, "");
  return parts.join("\n");
}

/** Cuts a result at a line so that the comment fits, saying so (only a result far past any normal size needs it). */
function cutToFit(marker, entry) {
  const room = COMMENT_BUDGET - render(marker, { ...entry, markdown: "" }, []).length - CUT_NOTE.length - 2;
  const kept = [];
  let size = 0;
  for (const line of lines(entry.markdown)) {
    if (size + line.length + 1 > room) break;
    kept.push(line);
    size += line.length + 1;
  }
  return { ...entry, markdown: `${kept.join("\n")}\n\n${CUT_NOTE}` };
}

/**
 * The comment after an upload: the new result on top, the previous top result first in the history.
 * The same run again (a retried job replaying its upload) replaces its own entry instead of stacking a
 * copy. The oldest results go first when the comment would pass the budget or MAX_HISTORY.
 *
 * @param {string | null} previousBody the comment as found, or null for a new one
 * @param {{ marker: string, runId: string, markdown: string }} result
 */
export function nextCommentBody(previousBody, { marker, runId, markdown }) {
  if (!ENTRY_OPEN.test(`<!-- benchtrack:entry run=${runId} -->`))
    throw new Error(`Unexpected run id ${JSON.stringify(runId)}`);
  let current = { runId, markdown: entryMarkdown(markdown, marker) };
  const seen = new Set([runId]);
  const history = [];
  for (const entry of parseEntries(previousBody)) {
    if (seen.has(entry.runId)) continue;
    seen.add(entry.runId);
    history.push(entry);
  }
  history.splice(MAX_HISTORY);
  if (render(marker, current, []).length > COMMENT_BUDGET) current = cutToFit(marker, current);
  while (history.length > 0 && render(marker, current, history).length > COMMENT_BUDGET) history.pop();
  return render(marker, current, history);
}

/**
 * Creates or updates the living comment through a forge (GitHub or GitLab, scripts/ci/forges.mjs):
 * `comments()` yields `{ id, body }` oldest first; `create(body)` and `update(id, body)` return `{ url }`.
 * The first comment carrying the marker is the one; a later copy (two jobs racing) is left alone.
 */
export async function upsertLivingComment(forge, result) {
  let found = null;
  for await (const comment of forge.comments()) {
    if (hasMarker(comment.body, result.marker)) {
      found = comment;
      break;
    }
  }
  const body = nextCommentBody(found?.body ?? null, result);
  if (found) return { action: "updated", ...(await forge.update(found.id, body)) };
  return { action: "created", ...(await forge.create(body)) };
}

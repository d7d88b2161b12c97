// Where the living comment lives: a GitHub pull request's issue comments, or a GitLab merge request's
// notes. Each forge lists comments oldest first (following its pagination), creates and updates one, and
// sets the head commit's status; scripts/ci/living-comment.mjs and commit-status.mjs decide what to write.
// See docs/ci.md.
import { sendJson, ServiceCallError } from "./http.mjs";

/** Pages followed at most (100 comments each): a runaway pagination stops here. */
const MAX_PAGES = 100;

/** rel="next" of a Link header (RFC 8288), as GitHub paginates. */
export function nextLink(header) {
  for (const part of (header ?? "").split(",")) {
    const match = /<([^>]+)>\s*;\s*rel="?next"?/.exec(part);
    if (match) return match[1];
  }
  return null;
}

function githubHint(status, text) {
  if (status === 401) return "The github-token is not valid (GITHUB_TOKEN).";
  if (status === 403 || status === 404) {
    const limited = /not accessible by integration|permission/i.test(text);
    return `${limited ? "The token may not write comments: " : ""}give the job \`permissions: pull-requests: write\` (and the default github.token); a pull request from a fork gets a read-only token, so its comment cannot be posted.`;
  }
  if (status === 422) return "GitHub refused the comment's body.";
  return null;
}

/** On a commit status call: the permission it needs, and how to do without it. */
function githubStatusHint(status) {
  if (status === 401) return "The github-token is not valid (GITHUB_TOKEN).";
  if (status === 403 || status === 404)
    return "The token needs `statuses: write`: add it to the job's `permissions:` (a pull request from a fork gets a read-only token), or turn the status off (BENCHTRACK_COMMIT_STATUS=false, the action's commit-status: false).";
  if (status === 422)
    return "GitHub refused the status (an unknown commit, or more than 1,000 statuses of this context on it).";
  return null;
}

function gitlabHint(status) {
  if (status === 401)
    return "BENCHTRACK_GITLAB_TOKEN is not a valid token (a project or personal access token with the api scope).";
  if (status === 403 || status === 404)
    return "BENCHTRACK_GITLAB_TOKEN needs the api scope and at least the Reporter role on the project (CI_JOB_TOKEN cannot write notes).";
  return null;
}

function gitlabStatusHint(status) {
  if (status === 401)
    return "BENCHTRACK_GITLAB_TOKEN is not a valid token (a project or personal access token with the api scope).";
  if (status === 403 || status === 404)
    return "BENCHTRACK_GITLAB_TOKEN needs the api scope and at least the Developer role on the project to set a commit status; or turn the status off (BENCHTRACK_COMMIT_STATUS=false).";
  if (status === 400) return "GitLab refused the status.";
  return null;
}

/**
 * Setting a commit status is retried like a read: a status posted twice is the same status (the latest of a
 * context wins), unlike a comment.
 *
 * @param {{ apiUrl: string, repository: string, issueNumber: number, statusSha: string | null, token: string, redact: (text: string) => string, retries: number }} options
 */
export function githubForge({ apiUrl, repository, issueNumber, statusSha, token, redact, retries }) {
  const api = apiUrl.replace(/\/+$/, "");
  const headers = {
    Authorization: `Bearer ${token}`,
    Accept: "application/vnd.github+json",
    "X-GitHub-Api-Version": "2022-11-28",
    "User-Agent": "benchtrack-pr",
  };
  const repo = repository.split("/").map(encodeURIComponent).join("/");
  const common = { headers, redact, hint: githubHint, timeoutMs: 30_000 };
  return {
    name: "GitHub",
    target: `pull request #${issueNumber}`,
    async *comments() {
      let url = `${api}/repos/${repo}/issues/${issueNumber}/comments?per_page=100`;
      for (let page = 0; url && page < MAX_PAGES; page += 1) {
        const { json, response } = await sendJson("GitHub", { ...common, method: "GET", url, retries });
        if (!Array.isArray(json))
          throw new ServiceCallError(
            `GitHub: listing the comments of pull request #${issueNumber} did not answer a list`,
            response.status,
          );
        for (const comment of json) yield { id: comment.id, body: comment.body };
        const next = nextLink(response.headers.get("link"));
        // The token goes only where the API is: a next page elsewhere is not followed.
        if (next && new URL(next, url).origin !== new URL(api).origin) {
          throw new ServiceCallError(
            redact(`GitHub: the next page of comments points outside ${new URL(api).origin}; not followed`),
            response.status,
          );
        }
        url = next ? new URL(next, url).toString() : null;
      }
    },
    async create(body) {
      const { json } = await sendJson("GitHub", {
        ...common,
        method: "POST",
        url: `${api}/repos/${repo}/issues/${issueNumber}/comments`,
        headers: { ...headers, "Content-Type": "application/json" },
        body: JSON.stringify({ body }),
      });
      return { id: json.id, url: json.html_url ?? null };
    },
    async update(id, body) {
      const { json } = await sendJson("GitHub", {
        ...common,
        method: "PATCH",
        url: `${api}/repos/${repo}/issues/comments/${encodeURIComponent(id)}`,
        headers: { ...headers, "Content-Type": "application/json" },
        body: JSON.stringify({ body }),
        retries,
      });
      return { id: json.id ?? id, url: json.html_url ?? null };
    },
    /** The pull request's head commit (not the merge commit GITHUB_SHA names); null: no status. */
    statusSha,
    /** POST /repos/{owner}/{repo}/statuses/{sha}: `state` success or failure. */
    async setStatus({ state, context, description, targetUrl }) {
      const { json } = await sendJson("GitHub", {
        ...common,
        hint: githubStatusHint,
        method: "POST",
        url: `${api}/repos/${repo}/statuses/${encodeURIComponent(statusSha)}`,
        headers: { ...headers, "Content-Type": "application/json" },
        body: JSON.stringify({ state, context, description, ...(targetUrl ? { target_url: targetUrl } : {}) }),
        retries,
      });
      return { state: json.state ?? state };
    },
  };
}

/** Our states in GitLab's words. */
const GITLAB_STATES = { success: "success", failure: "failed" };

/**
 * @param {{ apiUrl: string, projectId: string, mergeRequestIid: number, statusSha: string | null, pipelineId: number | null, token: string, webUrl: string | null, redact: (text: string) => string, retries: number }} options
 */
export function gitlabForge({
  apiUrl,
  projectId,
  mergeRequestIid,
  statusSha,
  pipelineId,
  token,
  webUrl,
  redact,
  retries,
}) {
  const project = `${apiUrl.replace(/\/+$/, "")}/projects/${encodeURIComponent(projectId)}`;
  const notes = `${project}/merge_requests/${mergeRequestIid}/notes`;
  const headers = { "PRIVATE-TOKEN": token, Accept: "application/json", "User-Agent": "benchtrack-pr" };
  const common = { headers, redact, hint: gitlabHint, timeoutMs: 30_000 };
  const noteUrl = (id) =>
    webUrl ? `${webUrl.replace(/\/+$/, "")}/-/merge_requests/${mergeRequestIid}#note_${id}` : null;
  return {
    name: "GitLab",
    target: `merge request !${mergeRequestIid}`,
    async *comments() {
      for (let page = 1, count = 0; page !== null && count < MAX_PAGES; count += 1) {
        const url = `${notes}?per_page=100&sort=asc&order_by=created_at&page=${page}`;
        const { json, response } = await sendJson("GitLab", { ...common, method: "GET", url, retries });
        if (!Array.isArray(json))
          throw new ServiceCallError(
            `GitLab: listing the notes of merge request !${mergeRequestIid} did not answer a list`,
            response.status,
          );
        // System notes ("added 1 commit") are GitLab's, never ours.
        for (const note of json) if (!note.system) yield { id: note.id, body: note.body };
        const next = response.headers.get("x-next-page") ?? "";
        page = /^\d+$/.test(next) && Number(next) > page ? Number(next) : null;
      }
    },
    async create(body) {
      const { json } = await sendJson("GitLab", {
        ...common,
        method: "POST",
        url: notes,
        headers: { ...headers, "Content-Type": "application/json" },
        body: JSON.stringify({ body }),
      });
      return { id: json.id, url: noteUrl(json.id) };
    },
    async update(id, body) {
      const { json } = await sendJson("GitLab", {
        ...common,
        method: "PUT",
        url: `${notes}/${encodeURIComponent(id)}`,
        headers: { ...headers, "Content-Type": "application/json" },
        body: JSON.stringify({ body }),
        retries,
      });
      return { id: json.id ?? id, url: noteUrl(json.id ?? id) };
    },
    /** CI_COMMIT_SHA; null: no status. */
    statusSha,
    /**
     * POST /projects/{id}/statuses/{sha}, in this pipeline (CI_PIPELINE_ID: a branch pipeline and a merge
     * request pipeline of one commit are two pipelines), so it shows as a job of the merge request's pipeline.
     */
    async setStatus({ state, context, description, targetUrl }) {
      const { json } = await sendJson("GitLab", {
        ...common,
        hint: gitlabStatusHint,
        method: "POST",
        url: `${project}/statuses/${encodeURIComponent(statusSha)}`,
        headers: { ...headers, "Content-Type": "application/json" },
        body: JSON.stringify({
          state: GITLAB_STATES[state],
          name: context,
          description,
          ...(targetUrl ? { target_url: targetUrl } : {}),
          ...(pipelineId ? { pipeline_id: pipelineId } : {}),
        }),
        retries,
      });
      return { state: json.status ?? GITLAB_STATES[state] };
    },
  };
}

import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * Small HTTP servers that implement just the GitHub and GitLab REST endpoints the CI script uses
 * (scripts/ci/forges.mjs): list a pull request's comments (a merge request's notes) page by page, create
 * one, update one; set a commit's status. They keep comments and statuses in memory, check the token,
 * hold GitHub's 65,536-character body limit and 140-character status description, GitLab's 255-character
 * status fields and its status transitions, record every request, and can be told to fail a call. For
 * the CI script's tests (scripts/ci/benchtrack-pr*.slow.test.ts and benchtrack-ab*.slow.test.ts, through
 * pr-step.fixture.ts) and e2e/ui/pr-flow.spec.ts and incident-workflow.spec.ts.
 */
export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  /** The credential header as received (Authorization for GitHub, PRIVATE-TOKEN for GitLab). */
  credential: string | null;
  body: string;
}

export interface FakeComment {
  id: number;
  body: string;
  /** GitLab's own notes ("added 1 commit"). */
  system?: boolean;
}

/** A commit status as the forge stored it, in the forge's own words (GitLab's `failed`, GitHub's `failure`). */
export interface FakeStatus {
  state: string;
  /** GitHub's `context`, GitLab's `name`. */
  context: string;
  description: string | null;
  targetUrl: string | null;
  /** GitLab's `pipeline_id`, when sent. */
  pipelineId: number | null;
}

interface Failure {
  method: string;
  path: RegExp;
  status: number;
  body: string;
  headers: Record<string, string>;
  times: number;
}

export interface FakeForge {
  url: string;
  requests: RecordedRequest[];
  /** Comments per pull request (GitHub) or merge request (GitLab), oldest first. */
  threads: Map<number, FakeComment[]>;
  /** Statuses set per commit SHA, oldest first (the latest of a context is the one a check shows). */
  statuses: Map<string, FakeStatus[]>;
  /** Fail the next `times` calls of `method` on a path matching `path`. */
  fail(
    method: string,
    path: RegExp,
    status: number,
    body: unknown,
    options?: { times?: number; headers?: Record<string, string> },
  ): void;
  /** Where GitHub's Link header points its next pages (a test of a hostile API sets another origin). */
  linkOrigin: string | null;
  close(): Promise<void>;
}

export const GITHUB_BODY_LIMIT = 65_536;

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function json(response: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}) {
  response.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers });
  response.end(JSON.stringify(value));
}

type Dispatch = (forge: FakeForge, request: RecordedRequest, response: ServerResponse) => void;

async function startFake(
  credentialHeader: string,
  expected: string,
  denied: (credential: string | null) => unknown,
  dispatch: Dispatch,
): Promise<FakeForge> {
  const failures: Failure[] = [];
  const forge: FakeForge = {
    url: "",
    requests: [],
    threads: new Map(),
    statuses: new Map(),
    linkOrigin: null,
    fail(method, path, status, body, options = {}) {
      failures.push({
        method,
        path,
        status,
        body: typeof body === "string" ? body : JSON.stringify(body),
        headers: options.headers ?? {},
        times: options.times ?? 1,
      });
    },
    close: async () => undefined,
  };
  const server = createServer((incoming, response) => {
    void (async () => {
      const url = new URL(incoming.url ?? "/", "http://fake.test");
      const credential = (incoming.headers[credentialHeader] as string | undefined) ?? null;
      const recorded: RecordedRequest = {
        method: incoming.method ?? "GET",
        path: url.pathname,
        query: url.searchParams,
        credential,
        body: await readBody(incoming),
      };
      forge.requests.push(recorded);
      const failure = failures.find(
        (candidate) =>
          candidate.times > 0 && candidate.method === recorded.method && candidate.path.test(recorded.path),
      );
      if (failure) {
        failure.times -= 1;
        response.writeHead(failure.status, { "content-type": "application/json", ...failure.headers });
        response.end(failure.body);
        return;
      }
      if (credential !== expected) return json(response, 401, denied(credential));
      dispatch(forge, recorded, response);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  forge.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  forge.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return forge;
}

function thread(forge: FakeForge, number: number): FakeComment[] {
  if (!forge.threads.has(number)) forge.threads.set(number, []);
  return forge.threads.get(number)!;
}

let nextId = 1000;

function statusesOf(forge: FakeForge, sha: string): FakeStatus[] {
  if (!forge.statuses.has(sha)) forge.statuses.set(sha, []);
  return forge.statuses.get(sha)!;
}

/** A JSON object body, or null when the body is not one. */
function jsonObject(text: string): Record<string, unknown> | null {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const text = (value: unknown): string | null => (typeof value === "string" ? value : null);

export const GITHUB_STATUS_STATES = ["error", "failure", "pending", "success"] as const;
export const GITHUB_DESCRIPTION_LIMIT = 140;
export const GITLAB_STATUS_STATES = ["pending", "running", "success", "failed", "canceled", "skipped"] as const;
export const GITLAB_STATUS_FIELD_LIMIT = 255;

/**
 * GitHub: GET/POST /repos/{owner}/{repo}/issues/{n}/comments (Link pagination), PATCH
 * /repos/{owner}/{repo}/issues/comments/{id}, POST /repos/{owner}/{repo}/statuses/{sha} (201, or 422 on a
 * bad state, a description past 140 characters, or a SHA that is not a full one).
 */
export function startFakeGithub(token: string): Promise<FakeForge> {
  return startFake(
    "authorization",
    `Bearer ${token}`,
    // Echoes what it was sent, as a careless proxy might: the script must not print it back.
    (credential) => ({
      message: `Bad credentials (got ${credential ?? "nothing"})`,
      documentation_url: "https://docs.github.com/rest",
    }),
    (forge, request, response) => {
      const list = /^\/repos\/[^/]+\/[^/]+\/issues\/(\d+)\/comments$/.exec(request.path);
      const one = /^\/repos\/[^/]+\/[^/]+\/issues\/comments\/(\d+)$/.exec(request.path);
      const body = () => (JSON.parse(request.body) as { body: string }).body;
      const tooLong = () =>
        json(response, 422, {
          message: "Validation Failed",
          errors: [
            {
              resource: "IssueComment",
              code: "custom",
              field: "body",
              message: `body is too long (maximum is ${GITHUB_BODY_LIMIT} characters)`,
            },
          ],
        });
      if (list && request.method === "GET") {
        const comments = thread(forge, Number(list[1]));
        const perPage = Math.min(Number(request.query.get("per_page") ?? 30), 100);
        const page = Number(request.query.get("page") ?? 1);
        const slice = comments.slice((page - 1) * perPage, page * perPage);
        const origin = forge.linkOrigin ?? forge.url;
        const headers: Record<string, string> =
          page * perPage < comments.length
            ? {
                link: `<${origin}${request.path}?per_page=${perPage}&page=${page + 1}>; rel="next", <${origin}${request.path}?per_page=${perPage}&page=${Math.ceil(comments.length / perPage)}>; rel="last"`,
              }
            : {};
        return json(
          response,
          200,
          slice.map((comment) => ({
            id: comment.id,
            body: comment.body,
            html_url: `https://github.test/acme/shop/pull/${list[1]}#issuecomment-${comment.id}`,
          })),
          headers,
        );
      }
      if (list && request.method === "POST") {
        if (body().length > GITHUB_BODY_LIMIT) return tooLong();
        const comment = { id: nextId++, body: body() };
        thread(forge, Number(list[1])).push(comment);
        return json(response, 201, {
          id: comment.id,
          body: comment.body,
          html_url: `https://github.test/acme/shop/pull/${list[1]}#issuecomment-${comment.id}`,
        });
      }
      const status = /^\/repos\/([^/]+)\/([^/]+)\/statuses\/([^/]+)$/.exec(request.path);
      if (status && request.method === "POST") {
        const input = jsonObject(request.body);
        if (!input) return json(response, 400, { message: "Problems parsing JSON" });
        const invalid = (field: string, message: string) =>
          json(response, 422, {
            message: "Validation Failed",
            errors: [{ resource: "Status", code: "custom", field, message }],
            documentation_url: "https://docs.github.com/rest/commits/statuses#create-a-commit-status",
          });
        const state = text(input.state);
        if (!state || !(GITHUB_STATUS_STATES as readonly string[]).includes(state))
          return invalid("state", "state is not included in the list");
        const description = text(input.description);
        if (description !== null && [...description].length > GITHUB_DESCRIPTION_LIMIT)
          return invalid("description", `description is too long (maximum is ${GITHUB_DESCRIPTION_LIMIT} characters)`);
        // The fake has no repository: any full SHA is a commit, anything else is not.
        if (!/^[0-9a-f]{40}$/.test(status[3]!))
          return json(response, 422, { message: `No commit found for SHA: ${status[3]}` });
        const stored: FakeStatus = {
          state,
          context: text(input.context) ?? "default",
          description,
          targetUrl: text(input.target_url),
          pipelineId: null,
        };
        statusesOf(forge, status[3]!).push(stored);
        const id = nextId++;
        return json(response, 201, {
          url: `${forge.url}/repos/${status[1]}/${status[2]}/statuses/${status[3]}`,
          id,
          node_id: `SC_${id}`,
          state: stored.state,
          description: stored.description,
          target_url: stored.targetUrl,
          context: stored.context,
          created_at: new Date().toISOString(),
          updated_at: new Date().toISOString(),
        });
      }
      if (one && request.method === "PATCH") {
        const comment = [...forge.threads.values()].flat().find((candidate) => candidate.id === Number(one[1]));
        if (!comment) return json(response, 404, { message: "Not Found" });
        if (body().length > GITHUB_BODY_LIMIT) return tooLong();
        comment.body = body();
        return json(response, 200, {
          id: comment.id,
          body: comment.body,
          html_url: `https://github.test/acme/shop/issues/comments/${comment.id}`,
        });
      }
      json(response, 404, { message: "Not Found" });
    },
  );
}

/**
 * GitLab: GET/POST /api/v4/projects/{id}/merge_requests/{iid}/notes (X-Next-Page pagination), PUT
 * …/notes/{note_id}, POST /api/v4/projects/{id}/statuses/{sha} (201, or 400 on a bad state, a field past
 * 255 characters, or a transition GitLab refuses).
 */
export function startFakeGitlab(token: string): Promise<FakeForge> {
  return startFake(
    "private-token",
    token,
    () => ({ message: "401 Unauthorized" }),
    (forge, request, response) => {
      const list = /^\/api\/v4\/projects\/[^/]+\/merge_requests\/(\d+)\/notes$/.exec(request.path);
      const one = /^\/api\/v4\/projects\/[^/]+\/merge_requests\/(\d+)\/notes\/(\d+)$/.exec(request.path);
      const body = () => (JSON.parse(request.body) as { body: string }).body;
      if (list && request.method === "GET") {
        const notes = thread(forge, Number(list[1]));
        const perPage = Math.min(Number(request.query.get("per_page") ?? 20), 100);
        const page = Number(request.query.get("page") ?? 1);
        const slice = notes.slice((page - 1) * perPage, page * perPage);
        const next = page * perPage < notes.length ? String(page + 1) : "";
        return json(
          response,
          200,
          slice.map((note) => ({ id: note.id, body: note.body, system: note.system ?? false })),
          { "x-next-page": next, "x-page": String(page) },
        );
      }
      if (list && request.method === "POST") {
        const note = { id: nextId++, body: body() };
        thread(forge, Number(list[1])).push(note);
        return json(response, 201, { id: note.id, body: note.body, system: false });
      }
      const status = /^\/api\/v4\/projects\/[^/]+\/statuses\/([^/]+)$/.exec(request.path);
      if (status && request.method === "POST") {
        // Like GitLab, the attributes may come as JSON or in the query.
        const input = { ...Object.fromEntries(request.query), ...(jsonObject(request.body) ?? {}) };
        const state = text(input.state);
        if (!state) return json(response, 400, { error: "state is missing" });
        if (!(GITLAB_STATUS_STATES as readonly string[]).includes(state))
          return json(response, 400, { error: "state does not have a valid value" });
        for (const field of ["name", "description", "target_url"] as const) {
          if ((text(input[field])?.length ?? 0) > GITLAB_STATUS_FIELD_LIMIT)
            return json(response, 400, {
              message: { [field]: [`is too long (maximum is ${GITLAB_STATUS_FIELD_LIMIT} characters)`] },
            });
        }
        if (!/^[0-9a-f]{40}$/.test(status[1]!)) return json(response, 404, { message: "404 Commit Not Found" });
        const name = text(input.name) ?? text(input.context) ?? "default";
        const pipelineId = input.pipeline_id === undefined ? null : Number(input.pipeline_id);
        const list = statusesOf(forge, status[1]!);
        // GitLab updates a status of that name still pending or running, and refuses to enter the state it
        // is in (or go back to pending from running); a finished one is followed by a new one.
        const active = list.findLast(
          (candidate) =>
            candidate.context === name &&
            candidate.pipelineId === pipelineId &&
            (candidate.state === "pending" || candidate.state === "running"),
        );
        if (active && (active.state === state || (state === "pending" && active.state === "running"))) {
          const event = state === "pending" ? "enqueue" : "run";
          return json(response, 400, {
            message: `Cannot transition status via :${event} from :${active.state} (Reason(s): Status cannot transition via "${event}")`,
          });
        }
        const stored: FakeStatus = {
          state,
          context: name,
          description: text(input.description),
          targetUrl: text(input.target_url),
          pipelineId,
        };
        if (active) Object.assign(active, stored);
        else list.push(stored);
        return json(response, 201, {
          id: nextId++,
          sha: status[1],
          ref: text(input.ref),
          status: stored.state,
          name: stored.context,
          target_url: stored.targetUrl,
          description: stored.description,
          created_at: new Date().toISOString(),
          started_at: null,
          finished_at: null,
          allow_failure: false,
          coverage: null,
          pipeline_id: pipelineId,
        });
      }
      if (one && request.method === "PUT") {
        const note = thread(forge, Number(one[1])).find((candidate) => candidate.id === Number(one[2]));
        if (!note) return json(response, 404, { message: "404 Not found" });
        note.body = body();
        return json(response, 200, { id: note.id, body: note.body, system: false });
      }
      json(response, 404, { message: "404 Not Found" });
    },
  );
}

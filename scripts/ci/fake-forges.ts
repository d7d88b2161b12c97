import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * Small HTTP servers that implement just the GitHub and GitLab REST endpoints the CI script uses
 * (scripts/ci/forges.mjs): list a pull request's comments (a merge request's notes) page by page, create
 * one, update one. They keep comments in memory, check the token, hold GitHub's 65,536-character body
 * limit, record every request, and can be told to fail a call. For benchtrack-pr.test.ts.
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

/** GitHub: GET/POST /repos/{owner}/{repo}/issues/{n}/comments (Link pagination), PATCH /repos/{owner}/{repo}/issues/comments/{id}. */
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

/** GitLab: GET/POST /api/v4/projects/{id}/merge_requests/{iid}/notes (X-Next-Page pagination), PUT …/notes/{note_id}. */
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

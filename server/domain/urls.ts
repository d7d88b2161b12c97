import type { SignificanceTest } from "./stats/verdict";
import { AGGREGATE_URL_NAME, isAggregate } from "./run";
import type { EndpointIdentity } from "./run";

/**
 * Every link Benchtrack builds, in one module: page and API paths relative to the server's root, and
 * `absoluteUrl` to put the public base URL in front (upload answers, Markdown comments, webhooks, the
 * API's `url` fields). Each path segment is encoded here, once; run-id lists in comparison links keep
 * their commas literal (`?base=a,b&head=c`), so a link in a PR comment stays readable.
 * Query strings are passed without their "?" (`"x=order"`), as `URLSearchParams#toString()` gives them.
 */

const segment = encodeURIComponent;

function withQuery(path: string, query: string | URLSearchParams | undefined): string {
  const text = query === undefined ? "" : query.toString();
  return text === "" ? path : `${path}?${text}`;
}

/** A comparison side: a selector as typed (`label:baseline`, `a,b`) or a list of run ids. */
export type CompareSide = string | readonly string[];

export interface CompareQuery {
  base: CompareSide;
  head: CompareSide;
  /** Newest n runs of each selector. */
  last?: number | null;
  test?: SignificanceTest | null;
  /** Only runs of this tool on both sides. */
  tool?: string | null;
  /** The compare page's view state (its table filter, chart metric and per-round endpoint). */
  show?: string | null;
  metric?: string | null;
  endpoint?: string | null;
}

/** `a,b` stays `a,b`; anything else in a part is percent-encoded (`label:x` → `label%3Ax`). */
function sideParam(side: CompareSide): string {
  const parts = typeof side === "string" ? side.split(",") : side;
  return parts.map(segment).join(",");
}

/** The query of a comparison, in a fixed order: base, head, then what is given of last, test, tool and the view. */
export function compareSearch(query: CompareQuery): string {
  const params = [`base=${sideParam(query.base)}`, `head=${sideParam(query.head)}`];
  for (const key of ["last", "test", "tool", "show", "metric", "endpoint"] as const) {
    const value = query[key];
    if (value !== undefined && value !== null) params.push(`${key}=${segment(String(value))}`);
  }
  return params.join("&");
}

/** Page paths: what a browser opens. */
export const pagePaths = {
  home: () => "/",
  apiDocs: () => "/docs/api",
  /** The server's people (server admins). */
  people: () => "/admin/people",
  /** The sign-in page of a private server; `next` is where to go after. */
  signIn: (next?: string) => withQuery("/sign-in", next && next !== "/" ? new URLSearchParams({ next }) : undefined),
  /**
   * What a private server says to a share link opened on a page it does not open ("outside"), or to
   * one that expired, was revoked, or is not a link of this server ("invalid"); `next` is the page asked for.
   */
  shareRefused: (reason: "outside" | "expired" | "revoked" | "invalid", share: string, next: string) =>
    withQuery("/share-link", new URLSearchParams({ reason, next, share })),
  /** A stored share link's short address: it leads to the page the link opens, carrying it (app/s/[id]/route.ts). */
  shortShare: (id: string) => `/s/${segment(id)}`,
  project: (slug: string) => `/projects/${segment(slug)}`,
  /** The run history; `query` carries its filters and cursor. */
  runs: (slug: string, query?: string | URLSearchParams) => withQuery(`${pagePaths.project(slug)}/runs`, query),
  run: (slug: string, runId: string) => `${pagePaths.project(slug)}/runs/${segment(runId)}`,
  /** The comparison page; without a query, its picker. */
  compare: (slug: string, query?: CompareQuery) =>
    withQuery(`${pagePaths.project(slug)}/compare`, query === undefined ? undefined : compareSearch(query)),
  /** The comparison's preview image (Open Graph). */
  compareImage: (slug: string, query: CompareQuery) => `${pagePaths.project(slug)}/compare/og?${compareSearch(query)}`,
  /**
   * An endpoint's trends; `endpoint` null or the aggregate's name is the aggregate ("_all"). An endpoint is
   * its name and protocol (domain/run.ts:EndpointIdentity): a known protocol goes in `?protocol=`, so gRPC
   * and HTTP endpoints of one name have a page each.
   */
  endpoint: (slug: string, endpoint: string | EndpointIdentity | null, query?: string | URLSearchParams) => {
    const name = typeof endpoint === "object" && endpoint !== null ? endpoint.name : endpoint;
    const protocol = typeof endpoint === "object" && endpoint !== null && !isAggregate(name) ? endpoint.protocol : null;
    const params = new URLSearchParams(query);
    const withProtocol = protocol === null || params.has("protocol") ? params : new URLSearchParams([["protocol", protocol], ...params]);
    return withQuery(`${pagePaths.project(slug)}/endpoints/${segment(isAggregate(name) ? AGGREGATE_URL_NAME : name!)}`, withProtocol);
  },
  /**
   * The capacity page: an endpoint's latency against throughput at each load level; its query names the
   * endpoint (`endpoint=GetListing&protocol=grpc`, the aggregate without one), the series and the curves.
   */
  capacity: (slug: string, query?: string | URLSearchParams) => withQuery(`${pagePaths.project(slug)}/capacity`, query),
  /** The incidents inbox; `query` carries its state filter (`state=all`). The older /regressions redirects here. */
  incidents: (slug: string, query?: string | URLSearchParams) => withQuery(`${pagePaths.project(slug)}/incidents`, query),
  /** One regression, as an anchor in the inbox (which opens its incident's row at it). */
  regression: (slug: string, regressionId: string) => `${pagePaths.project(slug)}/incidents#regression-${segment(regressionId)}`,
  /** One incident's page (its number within the project). */
  incident: (slug: string, incidentNumber: number) => `${pagePaths.project(slug)}/incidents/${incidentNumber}`,
  settings: (slug: string) => `${pagePaths.project(slug)}/settings`,
};

/** REST API paths: what curl and CI call. */
export const apiPaths = {
  openApi: () => "/api/v1/openapi.json",
  runSchema: () => "/api/v1/schema/run.json",
  projects: () => "/api/v1/projects",
  project: (slug: string) => `/api/v1/projects/${segment(slug)}`,
  runs: (slug: string, query?: string | URLSearchParams) => withQuery(`${apiPaths.project(slug)}/runs`, query),
  run: (slug: string, runId: string) => `${apiPaths.project(slug)}/runs/${segment(runId)}`,
  /** The original upload; `file` picks one file of a multi-file upload. */
  runRaw: (slug: string, runId: string, file?: number) =>
    withQuery(`${apiPaths.run(slug, runId)}/raw`, file === undefined ? undefined : `file=${file}`),
  runVerdict: (slug: string, runId: string) => `${apiPaths.run(slug, runId)}/verdict`,
  compare: (slug: string, query: CompareQuery) => `${apiPaths.project(slug)}/compare?${compareSearch(query)}`,
  badge: (slug: string) => `${apiPaths.project(slug)}/badge.svg`,
  incidents: (slug: string, query?: string | URLSearchParams) => withQuery(`${apiPaths.project(slug)}/incidents`, query),
  incident: (slug: string, incidentNumber: number) => `${apiPaths.project(slug)}/incidents/${incidentNumber}`,
  alertPrecision: (slug: string) => `${apiPaths.project(slug)}/incidents/precision`,
};

/** `path` under the public base URL ("https://bench.example.com" + "/projects/x"); a trailing slash is dropped once. */
export function absoluteUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, "")}${path}`;
}

/** The URL when it is http(s); anything else (javascript:, data:, junk) is never linked. */
export function safeHttpUrl(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:" ? value : null;
  } catch {
    return null;
  }
}

/** A commit on the repository's host: `<repo>/commit/<sha>` (GitHub, GitLab and Gitea all serve it). */
export function commitUrl(repoUrl: string, commit: string): string {
  return `${repoUrl.replace(/\/+$/, "")}/commit/${segment(commit)}`;
}

/** GitHub's and Gitea's /pull/N; GitLab's /-/merge_requests/N; unknown hosts are not guessed at. */
export function pullRequestUrl(repoUrl: string, pullRequest: number): string | null {
  const base = repoUrl.replace(/\/+$/, "");
  const host = new URL(base).hostname;
  if (host.includes("gitlab")) return `${base}/-/merge_requests/${pullRequest}`;
  if (host === "github.com" || host.includes("gitea") || host.includes("github")) return `${base}/pull/${pullRequest}`;
  return null;
}

/**
 * The diff between two commits: GitHub's and Gitea's `/compare/<base>...<head>`, GitLab's
 * `/-/compare/<base>...<head>`; unknown hosts are not guessed at (as pullRequestUrl).
 */
export function compareCommitsUrl(repoUrl: string, baseCommit: string, headCommit: string): string | null {
  const base = repoUrl.replace(/\/+$/, "");
  const host = new URL(base).hostname;
  const range = `${segment(baseCommit)}...${segment(headCommit)}`;
  if (host.includes("gitlab")) return `${base}/-/compare/${range}`;
  if (host === "github.com" || host.includes("gitea") || host.includes("github")) return `${base}/compare/${range}`;
  return null;
}

/** Where the sign-in and sign-out forms post (app/api/auth/session/route.ts). */
export const SESSION_FORM_ACTION = "/api/auth/session";

/** Signing in with the identity provider starts here (app/api/auth/oidc/start/route.ts) … */
export const OIDC_START_PATH = "/api/auth/oidc/start";
/** … and the provider sends the browser back here (the redirect URI to register with it). */
export const OIDC_CALLBACK_PATH = "/api/auth/oidc/callback";

/** The link that signs in with the identity provider and comes back to `next`. */
export function oidcSignInPath(next: string): string {
  return next === "/" ? OIDC_START_PATH : `${OIDC_START_PATH}?${new URLSearchParams({ next })}`;
}

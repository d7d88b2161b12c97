import { parseRunSelector } from "./compare/selector";

/**
 * The names under which access travels between the browser and the server (server/services/access/sessions.ts
 * seals what they carry): the session cookie a sign-in leaves, and a share link's query parameter,
 * which the dashboard forwards to tRPC in a header.
 */
export const SESSION_COOKIE = "benchtrack_session";
export const SHARE_PARAM = "share";
export const SHARE_HEADER = "x-benchtrack-share";

/** `href` (a path or an absolute URL, with or without a query or fragment) carrying a share token. */
export function withShareParam(href: string, token: string): string {
  const hashAt = href.indexOf("#");
  const [path, hash] = hashAt === -1 ? [href, ""] : [href.slice(0, hashAt), href.slice(hashAt)];
  const queryAt = path.indexOf("?");
  // Other parameters keep their spelling (a comparison's `a,b` stays readable): only the token is appended.
  const kept = queryAt === -1 ? "" : path.slice(queryAt + 1).split("&").filter((part) => part !== "" && !part.startsWith(`${SHARE_PARAM}=`)).join("&");
  const query = [kept, new URLSearchParams({ [SHARE_PARAM]: token }).toString()].filter(Boolean).join("&");
  return `${queryAt === -1 ? path : path.slice(0, queryAt)}?${query}${hash}`;
}

/**
 * What a share link opens: one comparison of a project (its sides pinned to run ids when minted), with
 * its runs, or one run. Read from the link by services/access/share-grants.ts.
 */
export type ShareScope =
  | { kind: "compare"; project: string; base: string; head: string; tool: string | null }
  | { kind: "run"; project: string; runId: string };

/** What a read asks for, so a share link can be held to its one comparison or run. */
export type ReadTarget =
  | { kind: "any" }
  | { kind: "project"; project: string }
  | { kind: "compare"; project: string; base: string; head: string; tool: string | null }
  | { kind: "run"; project: string; runId: string };

/**
 * Whether a share link's scope covers a read — the one place this is decided. A comparison's link opens
 * that comparison (and the same comparison narrowed to one tool: a subset of its runs), and the run
 * pages, raw uploads and JSON of the runs it names; a run's link opens that run's page, raw upload and
 * JSON. Both open their project's name (every page's header). Links name their runs by id
 * (services/sharing/share-links.ts pins a comparison's selectors when minting), so this needs no more
 * than the scope services/access/share-grants.ts read.
 */
export function shareCovers(scope: ShareScope, target: ReadTarget): boolean {
  if (target.kind === "any" || target.project !== scope.project) return false;
  if (target.kind === "project") return true;
  if (target.kind === "compare") {
    return (
      scope.kind === "compare" &&
      scope.base === target.base &&
      scope.head === target.head &&
      (scope.tool === null || scope.tool === target.tool)
    );
  }
  if (scope.kind === "run") return scope.runId === target.runId;
  return sharedRunIds(scope).includes(target.runId);
}

/** The runs a comparison's share link names by id: both sides, when they are run-id lists (a selector such as `label:x` names none). */
function sharedRunIds(scope: Extract<ShareScope, { kind: "compare" }>): string[] {
  return [scope.base, scope.head].flatMap((side) => {
    try {
      const selector = parseRunSelector(side, "side");
      return selector.kind === "ids" ? selector.ids : [];
    } catch {
      return [];
    }
  });
}

/**
 * The reads a share link may open, each declared where the read is served — a tRPC procedure's
 * `meta.share` (server/api/trpc.ts), a page in SHARE_PAGES below, the comparison image's route —
 * and turned into its target here, from the read's named fields (a procedure's input; a page's path
 * parameters, then its query): "project" (the project's name, for every page's header), "compare"
 * (`base`, `head`, `tool`) or "run" (`id`).
 */
export type ShareRead = "project" | "compare" | "run";

export function shareReadTarget(share: ShareRead | undefined, field: (name: string) => string | null): ReadTarget {
  const project = field("project");
  if (share === undefined || project === null) return { kind: "any" };
  if (share === "project") return { kind: "project", project };
  if (share === "compare") {
    const [base, head] = [field("base"), field("head")];
    return base !== null && head !== null ? { kind: "compare", project, base, head, tool: field("tool") } : { kind: "any" };
  }
  const runId = field("id");
  return runId !== null ? { kind: "run", project, runId } : { kind: "any" };
}

/**
 * The pages a share link may open (`:name` is a path parameter), beside the procedures and REST routes
 * that feed them; shareCovers decides which of them a given link opens.
 */
const SHARE_PAGES: { path: string[]; share: ShareRead }[] = [
  { path: ["projects", ":project", "compare"], share: "compare" },
  { path: ["projects", ":project", "compare", "og"], share: "compare" },
  { path: ["projects", ":project", "runs", ":id"], share: "run" },
];

/** What a page URL reads, as far as a share link is concerned: a comparison (or its image), a run, or anything. */
export function readTargetOfPage(url: URL): ReadTarget {
  const parts = url.pathname.split("/").filter(Boolean).map((part) => {
    try {
      return decodeURIComponent(part);
    } catch {
      return part;
    }
  });
  for (const page of SHARE_PAGES) {
    if (page.path.length !== parts.length) continue;
    const params = new Map<string, string>();
    const matches = page.path.every((segment, index) => {
      if (segment.startsWith(":")) params.set(segment.slice(1), parts[index]!);
      return segment.startsWith(":") || segment === parts[index];
    });
    if (matches) return shareReadTarget(page.share, (name) => params.get(name) ?? url.searchParams.get(name));
  }
  return { kind: "any" };
}


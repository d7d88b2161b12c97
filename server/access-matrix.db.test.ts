import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createCaller, appRouter } from "./api/root";
import { getDb } from "./db";
import type { ProjectAction } from "./domain/access/roles";
import { SESSION_COOKIE } from "./domain/share";
import type { PrismaClient } from "./generated/prisma/client";
import { sealSession } from "./services/access";
import { newTokenSecret } from "./services/access/tokens";
import { uniqueSlug } from "./testing/databases";
import { TEST_ADMIN_TOKEN, call, setUpRouteTestDatabase } from "./testing/rest-client";

// The role matrix (issue 40, docs/access.md "Roles"): every REST route that is not a plain read and every
// tRPC mutation, called by each kind of caller, allowed or refused (401/403) as the docs say. "Allowed" is
// any answer but 401 and 403: each call's input is chosen to stop after the access check where it would
// change much (an unknown run: 404; a wrong confirmation: 400). A route or mutation added without an entry
// here fails the first tests. Runs on whichever database the environment names (CI: both).

const READ_TOKEN = "matrix-read-token-0123456789";
setUpRouteTestDatabase({ BENCHTRACK_READ_TOKEN: READ_TOKEN });

const CALLERS = [
  "anonymous",
  "viewer",
  "triager",
  "maintainer",
  "maintainer of another project",
  "server-admin person",
  "admin token",
  "read token",
  "token: upload",
  "token: read",
  "token: triage",
  "token of another project",
] as const;
type CallerKind = (typeof CALLERS)[number];

/** What the server does beside a project's actions: creating projects (docs/access.md, server admins only). */
type Act = ProjectAction | "server";
const EVERYTHING: readonly Act[] = ["read", "upload", "mark", "triage", "share", "manage", "server"];

/** docs/access.md's tables, written out by hand (not read from roles.ts: this is what the code is held to). */
const MAY: Record<CallerKind, readonly Act[]> = {
  anonymous: [],
  viewer: ["read"],
  triager: ["read", "mark", "triage"],
  maintainer: ["read", "upload", "mark", "triage", "share", "manage"],
  "maintainer of another project": [],
  "server-admin person": EVERYTHING,
  "admin token": EVERYTHING,
  "read token": ["read"],
  "token: upload": ["upload", "mark"],
  "token: read": ["read", "share"],
  "token: triage": ["read", "mark", "triage"],
  "token of another project": [],
};

const PEOPLE = new Set<CallerKind>(["viewer", "triager", "maintainer", "maintainer of another project", "server-admin person"]);

/**
 * Whether a caller may: a REST write takes a bearer token only (docs/access.md: people write through the
 * dashboard), so over REST a person's session counts as no credential.
 */
function mayDo(caller: CallerKind, act: Act, transport: "rest" | "trpc"): boolean {
  if (transport === "rest" && PEOPLE.has(caller)) return false;
  return MAY[caller].includes(act);
}

interface World {
  /** The private project every call is about. */
  slug: string;
  /** What each caller sends: a bearer token, or a session cookie. */
  credentials: Record<CallerKind, { token: string | null; session: string | null }>;
}

const RUN = "nosuchrun";
const SHARE_ID = "AAAAAAAAAAAAAAAAAAAAAA";

/** The people (users rows) every world grants roles to: made once, sealed into sessions once. */
let people: { emails: Record<string, string>; sessions: Record<string, string> };

async function makePeople(db: PrismaClient) {
  const tag = uniqueSlug("matrix");
  const emails: Record<string, string> = {};
  const sessions: Record<string, string> = {};
  for (const kind of PEOPLE) {
    const email = `${kind.replaceAll(" ", "-")}@${tag}.example`;
    const user = await db.user.create({
      data: { issuer: "https://idp.example", subject: `${tag}-${kind}`, email, name: kind, serverAdmin: kind === "server-admin person" },
      select: { id: true },
    });
    emails[kind] = email;
    sessions[kind] = await sealSession({ role: "user", userId: user.id });
  }
  return { emails, sessions };
}

async function makeToken(db: PrismaClient, projectId: string, scopes: string[]): Promise<string> {
  const { token, prefix, tokenHash } = newTokenSecret();
  await db.apiToken.create({ data: { projectId, name: `matrix ${scopes.join("+")}`, prefix, tokenHash, scopes } });
  return token;
}

/** A private project with a member of each role, tokens of each scope, and another project with its own maintainer and token. */
async function makeWorld(db: PrismaClient, visibility: "public" | "private" = "private"): Promise<World> {
  const slug = uniqueSlug("matrix");
  const project = await db.project.create({ data: { slug, name: slug, visibility }, select: { id: true } });
  const other = await db.project.create({ data: { slug: uniqueSlug("matrix-other"), name: "other", visibility: "private" }, select: { id: true } });
  const grant = (projectId: string, kind: string, role: "viewer" | "triager" | "maintainer") =>
    db.projectMember.create({ data: { projectId, kind: "email", subject: people.emails[kind]!, role, grantedBy: "admin token" } });
  await grant(project.id, "viewer", "viewer");
  await grant(project.id, "triager", "triager");
  await grant(project.id, "maintainer", "maintainer");
  await grant(other.id, "maintainer of another project", "maintainer");
  const tokens = {
    "admin token": TEST_ADMIN_TOKEN,
    "read token": READ_TOKEN,
    "token: upload": await makeToken(db, project.id, ["upload"]),
    "token: read": await makeToken(db, project.id, ["read"]),
    "token: triage": await makeToken(db, project.id, ["triage"]),
    "token of another project": await makeToken(db, other.id, ["upload", "read", "triage"]),
  } as Partial<Record<CallerKind, string>>;
  const credentials = Object.fromEntries(
    CALLERS.map((kind) => [kind, { token: tokens[kind] ?? null, session: PEOPLE.has(kind) ? people.sessions[kind]! : null }]),
  ) as World["credentials"];
  return { slug, credentials };
}

/** Callers in the order they call: the admin token last, so a call it is allowed to finish (deleting the project) comes after the others'. */
const CALL_ORDER: CallerKind[] = [...CALLERS.filter((kind) => kind !== "admin token"), "admin token"];

// ---- REST ----

const API_ROOT = path.join(import.meta.dirname, "..", "app", "api", "v1");

interface RestCase {
  act: Act;
  /** Path parameters beside `project`. */
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
}

/** Every REST route whose access is not "read", by `METHOD /template`: the action its service checks, and a call that stops early. */
const REST_CASES: Record<string, RestCase> = {
  "POST /api/v1/projects": { act: "server", body: {} },
  "PATCH /api/v1/projects/[project]": { act: "manage", body: { minEffectPct: 3 } },
  "DELETE /api/v1/projects/[project]": { act: "manage" },
  "GET /api/v1/projects/[project]/audit": { act: "manage" },
  "PUT /api/v1/projects/[project]/baseline": { act: "manage", body: { runIds: [RUN] } },
  "DELETE /api/v1/projects/[project]/baseline": { act: "manage" },
  "POST /api/v1/projects/[project]/annotations": { act: "mark", body: { text: "deployed", kind: "deploy", at: "2026-11-01T00:00:00Z" } },
  "DELETE /api/v1/projects/[project]/annotations/[annotationId]": { act: "mark", params: { annotationId: "nosuchannotation" } },
  "GET /api/v1/projects/[project]/export": { act: "manage" },
  "POST /api/v1/projects/[project]/import": { act: "manage", body: "" },
  "POST /api/v1/projects/[project]/import/[source]": { act: "upload", params: { source: "bencher" }, body: "" },
  "PATCH /api/v1/projects/[project]/incidents": { act: "triage", body: { numbers: [999], state: "investigating" } },
  "PATCH /api/v1/projects/[project]/incidents/[number]": { act: "triage", params: { number: "999" }, body: { state: "investigating" } },
  "PATCH /api/v1/projects/[project]/regressions/[id]": { act: "triage", params: { id: "nosuchchange" }, body: { status: "acknowledged" } },
  "POST /api/v1/projects/[project]/runs": { act: "upload", body: "" },
  "DELETE /api/v1/projects/[project]/runs/[id]": { act: "manage", params: { id: RUN } },
  "POST /api/v1/projects/[project]/runs/[id]/annotations": { act: "mark", params: { id: RUN }, body: { text: "looked at" } },
  "POST /api/v1/projects/[project]/share-links": { act: "share", body: { run: RUN } },
  "GET /api/v1/projects/[project]/share-links": { act: "manage" },
  "DELETE /api/v1/projects/[project]/share-links/[id]": { act: "manage", params: { id: SHARE_ID } },
  "PUT /api/v1/projects/[project]/sla": { act: "manage", body: { targets: [] } },
  "POST /api/v1/projects/[project]/tokens": { act: "manage", body: { name: "matrix" } },
  "GET /api/v1/projects/[project]/tokens": { act: "manage" },
  "DELETE /api/v1/projects/[project]/tokens/[id]": { act: "manage", params: { id: "nosuchtoken" } },
  "GET /api/v1/projects/[project]/webhook": { act: "manage" },
  "PUT /api/v1/projects/[project]/webhook": { act: "manage", body: { format: "json" } },
  "GET /api/v1/projects/[project]/members": { act: "manage" },
  "POST /api/v1/projects/[project]/members": { act: "manage", body: { kind: "email", subject: "someone@matrix.example", role: "viewer" } },
  "PATCH /api/v1/projects/[project]/members/[id]": { act: "manage", params: { id: "nosuchmember" }, body: { role: "viewer" } },
  "DELETE /api/v1/projects/[project]/members/[id]": { act: "manage", params: { id: "nosuchmember" } },
  "GET /api/v1/users": { act: "server" },
  "GET /api/v1/audit": { act: "server" },
  "PATCH /api/v1/users/[id]": { act: "server", params: { id: "nosuchuser" }, body: { disabled: false } },
};

/** The REST routes of app/api/v1 by `METHOD /template` with the access each declares (projectRoute / accessRoute's `access`). */
function restRoutesByAccess(): Map<string, { access: string; file: string }> {
  const routes = new Map<string, { access: string; file: string }>();
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(full);
      else if (entry.name === "route.ts") {
        const source = readFileSync(full, "utf8");
        const template = `/api/v1/${path.relative(API_ROOT, dir).split(path.sep).join("/")}`.replace(/\/$/, "");
        for (const match of source.matchAll(/export const (GET|POST|PUT|PATCH|DELETE) = [^\n]*?access: "(\w+)"|export const (GET|POST|PUT|PATCH|DELETE) = [^\n]*\n\s*\{ access: "(\w+)"/g)) {
          routes.set(`${match[1] ?? match[3]} ${template}`, { access: match[2] ?? match[4]!, file: full });
        }
      }
    }
  };
  visit(API_ROOT);
  return routes;
}

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

async function callRest(key: string, file: string, world: World, caller: CallerKind): Promise<Response> {
  const [method, template] = key.split(" ") as [string, string];
  const entry = REST_CASES[key]!;
  const handler = ((await import(file)) as Record<string, Handler>)[method]!;
  const params: Record<string, string> = { project: world.slug, ...entry.params };
  const pathname = template.replace(/\[(\w+)\]/g, (_, name: string) => encodeURIComponent(params[name]!));
  const { token, session } = world.credentials[caller];
  const headers: Record<string, string> = session === null ? {} : { cookie: `${SESSION_COOKIE}=${session}` };
  const body = entry.body === undefined ? null : typeof entry.body === "string" ? entry.body : JSON.stringify(entry.body);
  if (body !== null) headers["content-type"] = "application/json";
  return call(handler, pathname, template === "/api/v1/projects" ? {} : params, { method, headers, body, token, query: entry.query });
}

// ---- tRPC ----

interface TrpcCase {
  act: Act;
  input: (slug: string) => unknown;
}

/** Every tRPC mutation: the action its service checks, and an input that stops early. */
const TRPC_CASES: Record<string, TrpcCase> = {
  "annotation.create": { act: "mark", input: (project) => ({ project, runId: RUN, text: "looked at" }) },
  "annotation.delete": { act: "mark", input: (project) => ({ project, annotationId: "nosuchannotation" }) },
  "baseline.pin": { act: "manage", input: (project) => ({ project, runIds: [RUN] }) },
  "baseline.unpin": { act: "manage", input: (project) => ({ project }) },
  "incident.update": { act: "triage", input: (project) => ({ project, numbers: [999], state: "investigating" }) },
  "run.delete": { act: "manage", input: (project) => ({ project, id: RUN }) },
  "settings.update": { act: "manage", input: (project) => ({ project, minEffectPct: 3 }) },
  "settings.setSlaPolicy": { act: "manage", input: (project) => ({ project, targets: [] }) },
  "settings.deleteProject": { act: "manage", input: (project) => ({ project, confirm: "not-the-slug" }) },
  "share.create": { act: "share", input: (project) => ({ project, link: { run: RUN } }) },
  "share.revoke": { act: "manage", input: (project) => ({ project, id: SHARE_ID }) },
  "token.create": { act: "manage", input: (project) => ({ project, name: "matrix" }) },
  "token.revoke": { act: "manage", input: (project) => ({ project, id: "nosuchtoken" }) },
  "webhook.update": { act: "manage", input: (project) => ({ project, format: "json" }) },
  "webhook.rotateSecret": { act: "manage", input: (project) => ({ project }) },
  "member.grant": { act: "manage", input: (project) => ({ project, grant: { kind: "group", subject: "matrix-group", role: "viewer" } }) },
  "member.update": { act: "manage", input: (project) => ({ project, id: "nosuchmember", role: "viewer" }) },
  "member.remove": { act: "manage", input: (project) => ({ project, id: "nosuchmember" }) },
  "member.setVisibility": { act: "manage", input: (project) => ({ project, visibility: "private" }) },
  "user.update": { act: "server", input: () => ({ id: "nosuchuser", changes: { disabled: false } }) },
};

function trpcMutations(): string[] {
  const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>;
  return Object.entries(procedures)
    .filter(([, procedure]) => procedure._def.type === "mutation")
    .map(([name]) => name)
    .sort();
}

function callerFor(db: PrismaClient, world: World, caller: CallerKind) {
  const { token, session } = world.credentials[caller];
  return createCaller({ db, authorization: token === null ? null : `Bearer ${token}`, session });
}

async function callTrpc(db: PrismaClient, name: string, world: World, caller: CallerKind, input: unknown): Promise<{ ok: true } | { ok: false; code: string; message: string }> {
  const procedure = name.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], callerFor(db, world, caller)) as (input: unknown) => Promise<unknown>;
  try {
    await procedure(input);
    return { ok: true };
  } catch (error) {
    const { code, message } = error as { code: string; message: string };
    return { ok: false, code, message };
  }
}

const REFUSALS = new Set(["UNAUTHORIZED", "FORBIDDEN"]);

describe("the role matrix (docs/access.md)", () => {
  let db: PrismaClient;
  beforeAll(async () => {
    db = await getDb();
    people = await makePeople(db);
  });

  it("has an entry for every REST route that is not a plain read, and only those", () => {
    const writes = [...restRoutesByAccess()].filter(([, route]) => route.access !== "read").map(([key]) => key).sort();
    expect(writes.length).toBeGreaterThan(20);
    expect(Object.keys(REST_CASES).sort()).toEqual(writes);
  });

  it("has an entry for every tRPC mutation, and only those", () => {
    expect(Object.keys(TRPC_CASES).sort()).toEqual(trpcMutations());
  });

  it("allows or refuses every REST write for each caller as docs/access.md says", { timeout: 120_000 }, async () => {
    const routes = restRoutesByAccess();
    const mismatches: string[] = [];
    for (const [key, entry] of Object.entries(REST_CASES)) {
      const world = await makeWorld(db);
      for (const caller of CALL_ORDER) {
        const response = await callRest(key, routes.get(key)!.file, world, caller);
        const refused = response.status === 401 || response.status === 403;
        const expected = mayDo(caller, entry.act, "rest");
        if (refused === expected) mismatches.push(`${key} by ${caller}: ${response.status} ${JSON.stringify(await response.json().catch(() => null))}`);
        // Nobody sending no credential hears 403: it is told to authenticate (401).
        if (!expected && world.credentials[caller].token === null && response.status !== 401) mismatches.push(`${key} by ${caller}: ${response.status}, not 401`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it("allows or refuses every tRPC mutation for each caller as docs/access.md says", { timeout: 120_000 }, async () => {
    const mismatches: string[] = [];
    for (const [name, entry] of Object.entries(TRPC_CASES)) {
      const world = await makeWorld(db);
      for (const caller of CALL_ORDER) {
        const result = await callTrpc(db, name, world, caller, entry.input(world.slug));
        const refused = !result.ok && REFUSALS.has(result.code);
        if (refused === mayDo(caller, entry.act, "trpc")) mismatches.push(`${name} by ${caller}: ${result.ok ? "ok" : `${result.code} ${result.message}`}`);
        if (caller === "anonymous" && !(refused && !result.ok && result.code === "UNAUTHORIZED")) mismatches.push(`${name} by anonymous: not UNAUTHORIZED`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it("reads a private project for those who may read it, and a public one for everyone", { timeout: 60_000 }, async () => {
    const [secret, open] = [await makeWorld(db, "private"), await makeWorld(db, "public")];
    const { GET: getProject } = (await import("../app/api/v1/projects/[project]/route")) as unknown as { GET: Handler };
    const mismatches: string[] = [];
    for (const world of [secret, open]) {
      const isPublic = world === open;
      for (const caller of CALLERS) {
        const expected = isPublic || MAY[caller].includes("read");
        const { token, session } = world.credentials[caller];
        const rest = await call(getProject, `/api/v1/projects/${world.slug}`, { project: world.slug }, {
          token,
          headers: session === null ? {} : { cookie: `${SESSION_COOKIE}=${session}` },
        });
        if ((rest.status === 200) !== expected) mismatches.push(`REST read of a ${isPublic ? "public" : "private"} project by ${caller}: ${rest.status}`);
        const trpc = await callTrpc(db, "project.get", world, caller, { project: world.slug });
        if (trpc.ok !== expected) mismatches.push(`tRPC read of a ${isPublic ? "public" : "private"} project by ${caller}: ${trpc.ok ? "ok" : trpc.code}`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it("lists the projects each caller may read, and tells the dashboard what it may do", async () => {
    const [secret, open] = [await makeWorld(db, "private"), await makeWorld(db, "public")];
    for (const caller of CALLERS) {
      const { projects } = await callerFor(db, secret, caller).project.list();
      const slugs = projects.map((project) => project.slug);
      expect(slugs.includes(open.slug), `${caller} lists the public project`).toBe(true);
      expect(slugs.includes(secret.slug), `${caller} lists the private project`).toBe(MAY[caller].includes("read"));
      const mine = await callerFor(db, secret, caller).access.mine({ project: secret.slug });
      expect(mine.visibility).toBe("private");
      expect([...mine.actions].sort(), caller).toEqual(MAY[caller].filter((act) => act !== "server").sort());
    }
    const triager = await callerFor(db, secret, "triager").access.mine({ project: secret.slug });
    expect(triager.role).toBe("triager");
    expect((await callerFor(db, secret, "server-admin person").access.mine({ project: secret.slug })).role).toBe("admin");
    expect((await callerFor(db, open, "anonymous").access.mine({ project: open.slug })).actions).toEqual(["read"]);
  });
});

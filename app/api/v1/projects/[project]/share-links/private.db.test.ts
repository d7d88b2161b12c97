import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { POST as signIn } from "@/app/api/auth/session/route";
import { createCaller } from "@/server/api/root";
import { getDb } from "@/server/db";
import { SESSION_COOKIE, SHARE_PARAM } from "@/server/domain/share";
import { sealSession, sealShare } from "@/server/services/access/sessions";
import { shortLinkTarget } from "@/server/services/sharing";
import { uniqueSlug } from "@/server/testing/databases";
import { call, TEST_ADMIN_TOKEN, setUpRouteTestDatabase } from "@/server/testing/rest-client";
import { GET as badge } from "../badge.svg/route";
import { GET as compareRest } from "../compare/route";
import { GET as runJson } from "../runs/[id]/route";
import { GET as runRaw } from "../runs/[id]/raw/route";
import { GET as runVerdict } from "../runs/[id]/verdict/route";
import { POST as uploadRun } from "../runs/route";
import { POST as createShareLink } from "./route";

// A private server (issue "Access control", done-when 1): with BENCHTRACK_READ_TOKEN set, no tRPC call,
// badge or REST read answers without a token, a signed-in session or a share link, and a share link
// opens its one comparison or run and nothing else. Runs on the embedded database and, with
// DATABASE_URL, PostgreSQL (the environment is read once per test file, so it is set before anything).
const READ_TOKEN = "private-read-token-0123456789";
const FIXTURES = path.resolve(import.meta.dirname, "../../../../../../server/domain/parsers/fixtures");
const k6Summary = (variant: "baseline" | "managedasync", round: number) =>
  readFileSync(path.join(FIXTURES, "k6", variant, `round${round}`, "summary.json"));

const slug = uniqueSlug("private");
const runIds: string[] = [];

setUpRouteTestDatabase({ BENCHTRACK_READ_TOKEN: READ_TOKEN });

beforeAll(async () => {
  for (const [index, variant] of (["baseline", "baseline", "managedasync"] as const).entries()) {
    const response = await call(uploadRun, `/api/v1/projects/${slug}/runs`, { project: slug }, {
      method: "POST",
      body: k6Summary(variant, index + 1),
      query: { label: "nightly", branch: index < 2 ? "main" : "feature/x", started_at: new Date(Date.UTC(2026, 0, 1, index)).toISOString() },
    });
    expect(response.status).toBe(201);
    runIds.push(((await response.json()) as { id: string }).id);
  }
});

const caller = async (credentials: { authorization?: string; session?: string; share?: string }) =>
  createCaller({ db: await getDb(), ...credentials });

describe("a private server's tRPC", () => {
  it("answers nothing without credentials, and everything with the read token or a session", async () => {
    // The project list lists what the caller may read: none of this server's projects, private by default.
    expect((await (await caller({})).project.list()).projects.map((p) => p.slug)).not.toContain(slug);
    await expect((await caller({})).run.get({ project: slug, id: runIds[0]! })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    expect((await (await caller({ authorization: `Bearer ${READ_TOKEN}` })).project.list()).projects.map((p) => p.slug)).toContain(slug);
    const session = await sealSession("read");
    expect((await (await caller({ session })).run.get({ project: slug, id: runIds[0]! })).run.id).toBe(runIds[0]);
    // A read session is not the admin.
    await expect((await caller({ session })).token.list({ project: slug })).rejects.toMatchObject({ code: "FORBIDDEN" });
    // An admin session is.
    await expect((await caller({ session: await sealSession("admin") })).token.list({ project: slug })).resolves.toBeDefined();
  });

  it("refuses forged and expired sessions and a wrong token", async () => {
    const session = await sealSession("read");
    const read = { project: slug, id: runIds[0]! };
    await expect((await caller({ session: `${session.slice(0, -4)}abcd` })).run.get(read)).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect((await caller({ session: await sealSession("read", Date.now() - 8 * 24 * 3600 * 1000) })).run.get(read)).rejects.toMatchObject({
      code: "UNAUTHORIZED",
    });
    expect((await (await caller({ session: `${session.slice(0, -4)}abcd` })).project.list()).projects.map((p) => p.slug)).not.toContain(slug);
    await expect((await caller({ authorization: "Bearer wrong-token-0123456789" })).project.list()).rejects.toMatchObject({
      code: "UNAUTHORIZED",
    });
  });

  it("lets a share link read its one comparison (and its project's name), nothing else", async () => {
    const base = `${runIds[0]},${runIds[1]}`;
    const { token } = await sealShare({ kind: "compare", project: slug, base, head: runIds[2]!, tool: null }, 3600);
    const shared = await caller({ share: token });
    const input = { project: slug, base, head: runIds[2]!, last: null, test: "welch" as const, baseUrl: "http://bench.test" };
    expect((await shared.compare.get(input)).head.runs.map((run) => run.id)).toEqual([runIds[2]]);
    expect((await shared.project.get({ project: slug })).slug).toBe(slug);
    await expect(shared.compare.get({ ...input, head: runIds[1]! })).rejects.toMatchObject({ code: "FORBIDDEN" });
    // The runs it names open too (their pages, raw uploads and JSON: services/access/auth.ts:shareCovers).
    expect((await shared.run.get({ project: slug, id: runIds[2]! })).run.id).toBe(runIds[2]);
    const narrower = await caller({ share: (await sealShare({ kind: "compare", project: slug, base: runIds[1]!, head: runIds[2]!, tool: null }, 3600)).token });
    await expect(narrower.run.get({ project: slug, id: runIds[0]! })).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect((await shared.project.list()).projects.map((p) => p.slug)).not.toContain(slug);
    await expect(shared.project.overview({ project: slug })).rejects.toMatchObject({ code: "FORBIDDEN" });
    // Expired, or for another project: worth nothing.
    const expired = await sealShare({ kind: "compare", project: slug, base, head: runIds[2]!, tool: null }, 1);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await expect((await caller({ share: expired.token })).compare.get(input)).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    const other = await sealShare({ kind: "compare", project: "other", base, head: runIds[2]!, tool: null }, 3600);
    await expect((await caller({ share: other.token })).compare.get(input)).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});

describe("a private server's REST reads and sign-in", () => {
  it("keeps the badge private: 401 without credentials, 200 with a session, never publicly cached", async () => {
    const url = `/api/v1/projects/${slug}/badge.svg`;
    expect((await call(badge, url, { project: slug }, { token: null })).status).toBe(401);
    const response = await call(badge, url, { project: slug }, {
      token: null,
      headers: { cookie: `${SESSION_COOKIE}=${await sealSession("read")}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("private, no-store");
  });

  it("signs a browser in with a valid token only, and never redirects off the site", async () => {
    const post = (fields: Record<string, string>) =>
      signIn(new Request("http://bench.test/api/auth/session", { method: "POST", body: new URLSearchParams(fields) }));
    const good = await post({ token: READ_TOKEN, next: `/projects/${slug}` });
    expect(good.status).toBe(303);
    expect(good.headers.get("location")).toBe(`/projects/${slug}`);
    const cookie = good.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(new RegExp(`^${SESSION_COOKIE}=Fe26\\.2\\*`));
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    const session = decodeURIComponent(/=([^;]+)/.exec(cookie)![1]!);
    expect((await (await caller({ session })).project.get({ project: slug })).slug).toBe(slug);

    const bad = await post({ token: "guess-0123456789abcdef", next: "/" });
    expect(bad.headers.get("location")).toBe("/sign-in?error=1&next=%2F");
    expect(bad.headers.get("set-cookie")).toBeNull();
    expect((await post({ token: READ_TOKEN, next: "//evil.example/x" })).headers.get("location")).toBe("/");
    const out = await post({ action: "sign-out" });
    expect(out.headers.get("set-cookie")).toMatch(new RegExp(`^${SESSION_COOKIE}=; .*Max-Age=0`));
  });
});

describe("share links", () => {
  const mint = (body: unknown, token: string | null = TEST_ADMIN_TOKEN) =>
    call(createShareLink, `/api/v1/projects/${slug}/share-links`, { project: slug }, {
      method: "POST",
      token,
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });

  it("are minted by the admin for one comparison or run, and open exactly that", async () => {
    const response = await mint({ compare: { base: runIds[0], head: runIds[2] }, expiresInDays: 2 });
    expect(response.status).toBe(201);
    const link = (await response.json()) as { url: string; page: string; expiresAt: string; scope: string };
    expect(link.scope).toBe("compare");
    const url = new URL(link.page);
    expect(link.url).toBe(`${url.origin}/s/${url.searchParams.get(SHARE_PARAM)}`);
    expect(url.pathname).toBe(`/projects/${slug}/compare`);
    expect(Date.parse(link.expiresAt) - Date.now()).toBeGreaterThan(47 * 3600 * 1000);
    const shared = await caller({ share: url.searchParams.get(SHARE_PARAM)! });
    const compared = await shared.compare.get({
      project: slug,
      base: url.searchParams.get("base")!,
      head: url.searchParams.get("head")!,
      last: null,
      test: "welch",
      baseUrl: "http://bench.test",
    });
    expect(compared.base.runs.map((run) => run.id)).toEqual([runIds[0]]);

    const runLink = (await (await mint({ run: runIds[1] })).json()) as { page: string };
    const runShare = await caller({ share: new URL(runLink.page).searchParams.get(SHARE_PARAM)! });
    expect((await runShare.run.get({ project: slug, id: runIds[1]! })).run.id).toBe(runIds[1]);
    await expect(runShare.run.get({ project: slug, id: runIds[0]! })).rejects.toMatchObject({ code: "FORBIDDEN" });
  });

  it("are refused without a token, with the read token, for an unknown run and for a bad body", async () => {
    expect((await mint({ run: runIds[0] }, null)).status).toBe(401);
    expect((await mint({ run: runIds[0] }, READ_TOKEN)).status).toBe(403);
    expect((await mint({ run: "no-such-run" })).status).toBe(404);
    const bad = await mint({ run: runIds[0], compare: { base: "a", head: "b" } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { details: { path: string }[] } }).error.details[0]?.path).toBe("compare");
    expect((await mint({ run: runIds[0], expiresInDays: 9999 })).status).toBe(400);
  });

  it("are what the upload's Markdown links to on a private server", async () => {
    const response = await call(uploadRun, `/api/v1/projects/${slug}/runs`, { project: slug }, {
      method: "POST",
      body: k6Summary("baseline", 3),
      headers: { accept: "text/markdown" },
      query: { label: "nightly", branch: "main", started_at: new Date(Date.UTC(2026, 0, 2)).toISOString() },
    });
    expect(response.status).toBe(201);
    const markdown = await response.text();
    // Stored links' short addresses (…/s/{id}: stored.db.test.ts), each leading to its page carrying the link.
    const shortLinks = [...markdown.matchAll(/\]\((http[^)]+)\)/g)].map((match) => new URL(match[1]!));
    expect(shortLinks.length).toBeGreaterThanOrEqual(2);
    for (const link of shortLinks) expect(link.pathname).toMatch(/^\/s\/[A-Za-z0-9_-]{22}$/);
    const followed = async (link: URL) => new URL(await shortLinkTarget(await getDb(), link.pathname.slice(3), link.searchParams), link.origin);
    const links = await Promise.all(shortLinks.map(followed));
    const compare = links.find((link) => link.pathname.endsWith("/compare"))!;
    const shared = await caller({ share: compare.searchParams.get(SHARE_PARAM)! });
    const compared = await shared.compare.get({
      project: slug,
      base: compare.searchParams.get("base")!,
      head: compare.searchParams.get("head")!,
      last: null,
      test: "welch",
      baseUrl: "http://bench.test",
    });
    expect(compared.base.runs).toHaveLength(2);

    // The JSON answer's comment (what the PR action posts) links the same way; its plain links stay plain.
    const json = (await (
      await call(uploadRun, `/api/v1/projects/${slug}/runs`, { project: slug }, {
        method: "POST",
        body: k6Summary("baseline", 2),
        query: { label: "nightly", branch: "feature/y", started_at: new Date(Date.UTC(2026, 0, 3)).toISOString() },
      })
    ).json()) as { comment: { markdown: string }; comparison: { url: string } };
    const commentLinks = await Promise.all([...json.comment.markdown.matchAll(/\]\((http[^)]+)\)/g)].map((match) => followed(new URL(match[1]!))));
    expect(commentLinks.map((link) => link.pathname)).toEqual(expect.arrayContaining([expect.stringMatching(/\/compare$/)]));
    for (const link of commentLinks) expect(link.searchParams.get(SHARE_PARAM)).toMatch(/^[A-Za-z0-9_-]{22}$/);
    // The gate's own test rides along to the comparison (what the gate decided on).
    expect(commentLinks.find((link) => link.pathname.endsWith("/compare"))!.searchParams.get("test")).toBe("student");
    expect(new URL(json.comparison.url).searchParams.has(SHARE_PARAM)).toBe(false);
  });

  it("pin a comparison to its runs, and open those runs' pages, raw uploads and JSON, nothing else", async () => {
    // runIds[2] is feature/x's only run; main's newest is a later upload, never runIds[0] (the oldest).
    const response = await mint({ compare: { base: "branch:main", head: "branch:feature/x", last: 1 }, expiresInDays: 1 });
    expect(response.status).toBe(201);
    const url = new URL(((await response.json()) as { page: string }).page);
    const pinnedBase = url.searchParams.get("base")!;
    expect(pinnedBase).toMatch(/^[a-z0-9]+$/);
    expect(pinnedBase).not.toBe(runIds[0]);
    expect(url.searchParams.get("head")).toBe(runIds[2]);
    // Run ids as given are pinned already, and keep their spelling (the shared page's own URL names them so).
    const byIds = (await (await mint({ compare: { base: `${runIds[0]},${runIds[1]}`, head: runIds[2] } })).json()) as { page: string };
    expect(new URL(byIds.page).searchParams.get("base")).toBe(`${runIds[0]},${runIds[1]}`);
    const share = url.searchParams.get(SHARE_PARAM)!;
    const shared = await caller({ share });
    for (const id of [pinnedBase, runIds[2]!]) expect((await shared.run.get({ project: slug, id })).run.id).toBe(id);
    await expect(shared.run.get({ project: slug, id: runIds[0]! })).rejects.toMatchObject({ code: "FORBIDDEN" });

    const rest = (handler: typeof runJson, suffix: string, id: string, query: Record<string, string> = {}) =>
      call(handler, `/api/v1/projects/${slug}/runs/${id}${suffix}`, { project: slug, id }, { token: null, query: { ...query, [SHARE_PARAM]: share } });
    expect((await rest(runJson, "", runIds[2]!)).status).toBe(200);
    expect((await rest(runRaw, "/raw", runIds[2]!)).status).toBe(200);
    expect((await rest(runVerdict, "/verdict", pinnedBase)).status).toBe(200);
    expect((await rest(runJson, "", runIds[0]!)).status).toBe(403);
    expect((await rest(runRaw, "/raw", runIds[0]!)).status).toBe(403);
    // The comparison's own JSON, as its page's JSON button links it; another comparison is refused.
    const compareQuery = { base: pinnedBase, head: runIds[2]!, [SHARE_PARAM]: share };
    const comparePath = `/api/v1/projects/${slug}/compare`;
    expect((await call(compareRest, comparePath, { project: slug }, { token: null, query: compareQuery })).status).toBe(200);
    expect((await call(compareRest, comparePath, { project: slug }, { token: null, query: { ...compareQuery, base: runIds[0]! } })).status).toBe(403);
    // Without the token, nothing.
    expect((await call(runJson, `/api/v1/projects/${slug}/runs/${runIds[2]}`, { project: slug, id: runIds[2]! }, { token: null })).status).toBe(401);
  });

  it("are what a shared comparison links to, and what an admin's dashboard mints with its Markdown", async () => {
    const base = runIds[0]!;
    const head = runIds[2]!;
    // A sealed token, as links were minted before they were stored: still honoured (old PR comments hold them).
    const { token } = await sealShare({ kind: "compare", project: slug, base, head, tool: null }, 3600);
    const read = await (await caller({ share: token })).compare.get({ project: slug, base, head, last: null, test: "welch", baseUrl: "http://bench.test" });
    for (const link of [read.links.page, read.links.image, ...(read.head.runs as { url: string }[]).map((run) => run.url), `http://bench.test${read.links.api}`]) {
      expect(new URL(link).searchParams.get(SHARE_PARAM)).toBe(token);
    }
    const inLink = (value: string) => new URLSearchParams({ [SHARE_PARAM]: value }).toString();
    expect(read.markdown).toContain(inLink(token));
    // A signed-in reader's comparison links stay plain (its session is what opens them).
    const plain = await (await caller({ session: await sealSession("read") })).compare.get({ project: slug, base, head, last: null, test: "welch", baseUrl: "http://bench.test" });
    expect(new URL(plain.links.page).searchParams.has(SHARE_PARAM)).toBe(false);

    // The dashboard's Share button: an admin session mints; a read session may not.
    const admin = await caller({ session: await sealSession("admin") });
    const minted = await admin.share.create({ project: slug, link: { compare: { base, head }, expiresInDays: 7 } });
    const mintedToken = new URL(minted.page).searchParams.get(SHARE_PARAM)!;
    expect(minted.markdown).toContain(inLink(mintedToken));
    expect(Date.parse(minted.expiresAt) - Date.now()).toBeGreaterThan(6.9 * 24 * 3600 * 1000);
    const reader = await caller({ session: await sealSession("read") });
    await expect(reader.share.create({ project: slug, link: { run: base } })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect((await caller({ share: mintedToken })).share.create({ project: slug, link: { run: base } })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    expect((await admin.share.create({ project: slug, link: { run: base } })).markdown).toBeNull();

    // What the page's banner and the refusal page are told about a token, and nothing for a bad one.
    const described = await (await caller({})).share.describe({ token: mintedToken });
    expect(described).toMatchObject({ status: "open", kind: "compare", project: slug });
    expect(described.status === "open" && described.page).toContain(`/projects/${slug}/compare?base=${base}&head=${head}&${SHARE_PARAM}=`);
    expect(await (await caller({})).share.describe({ token: `${mintedToken.slice(0, -4)}abcd` })).toEqual({ status: "invalid" });
    expect((await (await caller({ share: mintedToken })).session.get()).share).toMatchObject({ kind: "compare", token: mintedToken });
    expect((await (await caller({ share: mintedToken, session: await sealSession("read") })).session.get()).share).toBeNull();
  });
});

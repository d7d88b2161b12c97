import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createCaller } from "@/server/api/root";
import { getDb } from "@/server/db";
import { SHARE_HEADER, SHARE_PARAM, withShareParam } from "@/server/domain/share";
import { sealSession, sealShare } from "@/server/services/access/sessions";
import { readShareLink } from "@/server/services/access/share-grants";
import { shareLinkFor, shortLinkTarget } from "@/server/services/sharing/share-links";
import { uniqueSlug } from "@/server/testing/databases";
import { call, TEST_ADMIN_TOKEN, setUpRouteTestDatabase } from "@/server/testing/rest-client";
import { GET as runJson } from "../runs/[id]/route";
import { GET as runRaw } from "../runs/[id]/raw/route";
import { POST as uploadRun } from "../runs/route";
import { DELETE as revokeRest, GET as otherOnOne } from "./[id]/route";
import { GET as shortLink } from "@/app/s/[id]/route";
import { POST as mintRest, GET as listRest } from "./route";

// Stored share links (issue 38, item 3): minted into share_links, the URL carries a 22-character id,
// expiry and revocation are the row's, hostile ids are refused with a 4xx (never a 500), and links
// minted before (sealed tokens) still open. On the embedded database and, with DATABASE_URL, PostgreSQL.
const READ_TOKEN = "private-read-token-0123456789";
const FIXTURES = path.resolve(import.meta.dirname, "../../../../../../server/domain/parsers/fixtures");
const summary = (round: number) => readFileSync(path.join(FIXTURES, "k6", "baseline", `round${(round % 3) + 1}`, "summary.json"));
const BASE_URL = "http://bench.example.com";

const slug = uniqueSlug("stored-share");
/** Ten runs: five on main (base), five on feature/y (head). */
const runIds: string[] = [];

setUpRouteTestDatabase({ BENCHTRACK_READ_TOKEN: READ_TOKEN });

beforeAll(async () => {
  for (let index = 0; index < 10; index++) {
    const response = await call(uploadRun, `/api/v1/projects/${slug}/runs`, { project: slug }, {
      method: "POST",
      body: summary(index),
      query: { branch: index < 5 ? "main" : "feature/y", started_at: new Date(Date.UTC(2026, 0, 1, index)).toISOString() },
    });
    expect(response.status).toBe(201);
    runIds.push(((await response.json()) as { id: string }).id);
  }
});

const caller = async (credentials: { authorization?: string; session?: string; share?: string }) => createCaller({ db: await getDb(), ...credentials });
const mint = async (body: unknown, token: string | null = TEST_ADMIN_TOKEN) =>
  call(mintRest, `/api/v1/projects/${slug}/share-links`, { project: slug }, { method: "POST", token, headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
/** A minted link's id: the last segment of its short URL (…/s/{id}). */
const idOf = (url: string) => new URL(url).searchParams.get(SHARE_PARAM) ?? new URL(url).pathname.split("/").pop()!;
const readRun = (id: string, share: { query?: string; header?: string }) =>
  call(runJson, `/api/v1/projects/${slug}/runs/${id}`, { project: slug, id }, {
    token: null,
    query: share.query === undefined ? {} : { [SHARE_PARAM]: share.query },
    headers: share.header === undefined ? {} : { [SHARE_HEADER]: share.header },
  });
const errorOf = async (response: Response) => ((await response.json()) as { error: { code: string; message: string } }).error;

describe("a stored share link", () => {
  it("carries only a 22-character random id: a 5 vs 5 comparison's URL is short, where a sealed one ran past a thousand characters", async () => {
    const response = await mint({ compare: { base: "branch:main", head: "branch:feature/y" } });
    expect(response.status).toBe(201);
    const { url, page } = (await response.json()) as { url: string; page: string };
    const id = idOf(page);
    expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(url).toBe(`${new URL(page).origin}/s/${id}`);
    const pinned = new URL(page);
    expect(pinned.searchParams.get("base")!.split(",").sort()).toEqual(runIds.slice(0, 5).sort());
    // Before: the same scope as a sealed token on the same page (how links were minted until now).
    const { token: sealed } = await sealShare({ kind: "compare", project: slug, base: pinned.searchParams.get("base")!, head: pinned.searchParams.get("head")!, tool: null }, 30 * 86_400);
    const before = withShareParam(page, sealed);
    console.log(`5 vs 5 comparison share link: ${before.length} characters sealed; now ${url.length} (${url}), leading to a page of ${page.length}`);
    expect(before.length).toBeGreaterThan(1000);
    expect(url.length).toBeLessThan(60);
    // The short link leads to the page, carrying the link; view state given to it rides along.
    expect(await shortLinkTarget(await getDb(), id, new URLSearchParams({ test: "student", base: "x" }))).toBe(`${pinned.pathname}${pinned.search.replace(/&share=.*/, "")}&test=student&share=${id}`);
    expect(await shortLinkTarget(await getDb(), "AAAAAAAAAAAAAAAAAAAAAA", new URLSearchParams())).toBe("/share-link?reason=invalid&next=%2F&share=AAAAAAAAAAAAAAAAAAAAAA");
    expect(await shortLinkTarget(await getDb(), "x".repeat(5000), new URLSearchParams())).toBe("/share-link?reason=invalid&next=%2F&share=");
  });

  it("opens its scope, is listed with what it opens, and stops opening when revoked (REST and tRPC)", async () => {
    const { url } = (await (await mint({ run: runIds[0], expiresInDays: 3 })).json()) as { url: string };
    const id = idOf(url);
    expect((await readRun(runIds[0]!, { query: id })).status).toBe(200);
    expect((await readRun(runIds[0]!, { header: id })).status).toBe(200);
    expect((await readRun(runIds[1]!, { query: id })).status).toBe(403);

    const list = (await (await call(listRest, `/api/v1/projects/${slug}/share-links`, { project: slug })).json()) as {
      shareLinks: { id: string; url: string; status: string; scope: { kind: string; runId?: string }; createdBy: string; expiresAt: string }[];
    };
    const row = list.shareLinks.find((link) => link.id === id)!;
    expect(row).toMatchObject({ url, page: `/projects/${slug}/runs/${runIds[0]}?share=${id}`, status: "open", scope: { kind: "run", runId: runIds[0] }, createdBy: "admin" });
    expect(Date.parse(row.expiresAt) - Date.now()).toBeGreaterThan(2.9 * 86_400_000);
    // Listing and revoking are the admin's: a read token or a share link may do neither.
    expect((await call(listRest, `/api/v1/projects/${slug}/share-links`, { project: slug }, { token: READ_TOKEN })).status).toBe(403);
    expect((await call(listRest, `/api/v1/projects/${slug}/share-links`, { project: slug }, { token: null, query: { [SHARE_PARAM]: id } })).status).toBe(401);

    const revoke = (linkId: string, token: string | null = TEST_ADMIN_TOKEN) =>
      call(revokeRest, `/api/v1/projects/${slug}/share-links/${encodeURIComponent(linkId)}`, { project: slug, id: linkId }, { method: "DELETE", token });
    expect((await revoke(id, READ_TOKEN)).status).toBe(403);
    expect((await revoke(id)).status).toBe(204);
    expect((await revoke(id)).status).toBe(204);
    const refused = await readRun(runIds[0]!, { query: id });
    expect(refused.status).toBe(401);
    expect((await errorOf(refused)).message).toMatch(/share link was revoked .*X-Benchtrack-Share/);
    expect(await (await caller({})).share.describe({ token: id })).toEqual({ status: "revoked" });
    expect((await (await caller({ share: id })).session.get()).share).toBeNull();
    const listed = (await (await call(listRest, `/api/v1/projects/${slug}/share-links`, { project: slug })).json()) as { shareLinks: { id: string; status: string; revokedAt: string | null }[] };
    expect(listed.shareLinks.find((link) => link.id === id)).toMatchObject({ status: "revoked", revokedAt: expect.any(String) });

    // Settings' tRPC: the admin's list and Revoke; a read session may not.
    const other = idOf(((await (await mint({ run: runIds[1] })).json()) as { url: string }).url);
    const admin = await caller({ session: await sealSession("admin") });
    expect((await admin.share.list({ project: slug })).find((link) => link.id === other)).toMatchObject({ status: "open", scope: { kind: "run", runId: runIds[1] } });
    await expect((await caller({ session: await sealSession("read") })).share.revoke({ project: slug, id: other })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await admin.share.revoke({ project: slug, id: other });
    await expect((await caller({ share: other })).run.get({ project: slug, id: runIds[1]! })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(admin.share.revoke({ project: slug, id: "bad id!" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });

  it("expires at its time, saying so", async () => {
    const db = await getDb();
    const project = await db.project.findUniqueOrThrow({ where: { slug }, select: { id: true } });
    const minted = await shareLinkFor(db, project, { kind: "run", project: slug, runId: runIds[2]! }, { ttlSeconds: 1, baseUrl: BASE_URL, createdBy: "test" });
    const id = idOf(minted.url);
    expect((await readShareLink(db, id)).status).toBe("open");
    expect((await readShareLink(db, id, new Date(Date.parse(minted.expiresAt) + 1))).status).toBe("expired");
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(minted.expiresAt) - Date.now()) + 50));
    const refused = await readRun(runIds[2]!, { header: id });
    expect(refused.status).toBe(401);
    expect((await errorOf(refused)).message).toMatch(/share link has expired/);
  });

  it("is given again, not stored again, when the same minter asks for the same scope and lifetime within the window", async () => {
    const first = (await (await mint({ run: runIds[3], expiresInDays: 7 })).json()) as { url: string; expiresAt: string };
    const again = (await (await mint({ run: runIds[3], expiresInDays: 7 })).json()) as { url: string; expiresAt: string };
    expect(again).toEqual({ ...first, scope: "run" });
    // Another lifetime is another link.
    const longer = (await (await mint({ run: runIds[3], expiresInDays: 30 })).json()) as { url: string };
    expect(idOf(longer.url)).not.toBe(idOf(first.url));
  });

  it("refuses hostile ids with a 4xx that speaks of the share link, never a 500", async () => {
    const hostile = ["x".repeat(23), "A".repeat(5000), "%%%", "abc def", "../../etc/passwd", "Fe26.2**forged", "\u0000".repeat(22), "é".repeat(22), "AAAAAAAAAAAAAAAAAAAAAA"];
    for (const share of hostile) {
      for (const where of [{ query: share }, { header: encodeURIComponent(share) }]) {
        const answer = await readRun(runIds[0]!, where);
        const { message } = await errorOf(answer);
        // NUL in a query is refused as text no database holds (400), before any link is looked at.
        if (share.includes("\u0000") && where.query !== undefined) {
          expect([answer.status, message]).toEqual([400, expect.stringMatching(/share/)]);
          continue;
        }
        expect(answer.status, JSON.stringify(where).slice(0, 60)).toBe(401);
        expect(message).toMatch(/share link is not valid .*X-Benchtrack-Share/);
      }
      const described = (await caller({})).share.describe({ token: share });
      if (share.includes("\u0000")) await expect(described).rejects.toMatchObject({ code: "BAD_REQUEST" });
      else expect(await described).toEqual({ status: "invalid" });
    }
    const revoke = (id: string) => call(revokeRest, `/api/v1/projects/${slug}/share-links/${encodeURIComponent(id)}`, { project: slug, id }, { method: "DELETE" });
    for (const id of ["x".repeat(23), "A".repeat(5000), "abc def", "..%2F"]) {
      const answer = await revoke(id);
      expect(answer.status).toBe(400);
      expect((await errorOf(answer)).message).toBe("Not a share link's id");
    }
    expect((await revoke("AAAAAAAAAAAAAAAAAAAAAA")).status).toBe(404);
    expect((await otherOnOne(new Request(`http://bench.test/api/v1/projects/${slug}/share-links/x`))).status).toBe(405);
    // The short address: a redirect to the page that says so, for any id.
    for (const id of ["x".repeat(23), "A".repeat(5000), "%%%", "AAAAAAAAAAAAAAAAAAAAAA"]) {
      const answer = await shortLink(new Request(`http://bench.test/s/${encodeURIComponent(id)}`), { params: Promise.resolve({ id }) });
      expect(answer.status).toBe(303);
      expect(answer.headers.get("location")).toMatch(/^\/share-link\?reason=invalid&/);
    }
  });

  it("reads X-Benchtrack-Share as copied from a URL (percent-encoded), and links minted before (sealed) still open", async () => {
    const { token: sealed } = await sealShare({ kind: "run", project: slug, runId: runIds[4]! }, 3600);
    const copied = new URLSearchParams({ [SHARE_PARAM]: sealed }).toString().slice(SHARE_PARAM.length + 1);
    expect(copied).not.toBe(sealed);
    for (const share of [{ query: sealed }, { header: sealed }, { header: copied }]) {
      expect((await readRun(runIds[4]!, share)).status).toBe(200);
    }
    expect((await call(runRaw, `/api/v1/projects/${slug}/runs/${runIds[4]}/raw`, { project: slug, id: runIds[4]! }, { token: null, headers: { [SHARE_HEADER]: copied } })).status).toBe(200);
    expect((await readRun(runIds[3]!, { header: copied })).status).toBe(403);
    // A stored id, URL-encoded whole, too.
    const id = idOf(((await (await mint({ run: runIds[4] })).json()) as { url: string }).url);
    expect((await readRun(runIds[4]!, { header: [...id].map((char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`).join("") })).status).toBe(200);
    // Links a sealed token's holder copies carry it as it came (percent-decoded once).
    const shared = await (await caller({ share: copied })).run.get({ project: slug, id: runIds[4]! });
    expect(shared.run.id).toBe(runIds[4]);
    // An expired sealed token says it expired; an altered one that it is not valid.
    const expired = await sealShare({ kind: "run", project: slug, runId: runIds[4]! }, 1);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(await (await caller({})).share.describe({ token: expired.token })).toEqual({ status: "expired" });
    expect(await (await caller({})).share.describe({ token: `${sealed.slice(0, -6)}AAAAAA` })).toEqual({ status: "invalid" });
  });
});

import { describe, expect, it } from "vitest";
import { SESSION_COOKIE } from "@/server/domain/share";
import { TEST_ADMIN_TOKEN, setUpRouteTestDatabase } from "@/server/testing/rest-client";
import { POST } from "./route";

// POST /api/auth/session, the sign-in form and sign-out button (issue 36, items 3, 4 and 12, and the
// form's size cap). Runs on the embedded database and, with DATABASE_URL, PostgreSQL. The test
// environment's public URL is http://bench.test (server/testing/rest-client.ts).
const SITE = "http://bench.test";

setUpRouteTestDatabase();

function post(body: BodyInit, headers: Record<string, string> = {}): Promise<Response> {
  return POST(new Request(`${SITE}/api/auth/session`, { method: "POST", body, headers }));
}
const form = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
  post(new URLSearchParams(fields), headers);
const signIn = (next: string, token = TEST_ADMIN_TOKEN) => form({ token, next });

describe("where signing in leads (next)", () => {
  it("goes to a path of this site", async () => {
    const answer = await signIn("/projects/alpha/runs?branch=feature%2Fx");
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toBe("/projects/alpha/runs?branch=feature%2Fx");
    expect(answer.headers.get("set-cookie")).toMatch(new RegExp(`^${SESSION_COOKIE}=Fe26\\.2\\*`));
  });

  it("never leaves the site: the reported /<TAB>/evil.example and its cousins go home", async () => {
    for (const next of [
      "/\t/evil.example",
      "/\\evil.example",
      "//evil.example",
      "/.//evil.example",
      "/%2F%2Fevil.example",
      "https://evil.example",
      "javascript:alert(1)",
      " //evil.example",
    ]) {
      const answer = await signIn(next);
      expect(answer.status, JSON.stringify(next)).toBe(303);
      expect(answer.headers.get("location"), JSON.stringify(next)).toBe("/");
      expect(new URL(answer.headers.get("location")!, SITE).origin).toBe(SITE);
    }
  });

  it("carries only a safe next back to the form after a wrong token", async () => {
    const answer = await signIn("/\t/evil.example", "wrong-token-0123456789");
    expect(answer.headers.get("location")).toBe("/sign-in?error=1&next=%2F");
    expect(answer.headers.get("set-cookie")).toBeNull();
  });

  it("never answers 500, whatever next holds: CR, LF, NUL, non-Latin-1 characters", async () => {
    for (const next of [
      "/\r\nSet-Cookie: x=1",
      "/x\n",
      "\r\n",
      "/x\r",
      "/x\u0000",
      "/€?q=é#ü",
      "/\u2028x",
      "/x%0D%0ALocation:%20https://evil.example",
      "/%E0%A4%A",
    ]) {
      for (const token of [TEST_ADMIN_TOKEN, "wrong-token-0123456789"]) {
        const answer = await signIn(next, token);
        expect(answer.status, JSON.stringify(next)).toBe(303);
        const location = answer.headers.get("location")!;
        expect(location, JSON.stringify(next)).toMatch(/^\/[\x21-\x7e]*$/);
        expect(new URL(location, SITE).origin).toBe(SITE);
      }
    }
  });
});

describe("the form's body", () => {
  it("is read URL-encoded or multipart", async () => {
    const multipart = new FormData();
    multipart.set("token", TEST_ADMIN_TOKEN);
    multipart.set("next", "/projects/beta");
    const answer = await post(multipart);
    expect(answer.headers.get("location")).toBe("/projects/beta");
    expect(answer.headers.get("set-cookie")).toMatch(new RegExp(`^${SESSION_COOKIE}=Fe26`));
  });

  it("of another type, or none, is an empty form: back to sign-in", async () => {
    const json = await post(JSON.stringify({ token: TEST_ADMIN_TOKEN }), { "content-type": "application/json" });
    expect(json.headers.get("location")).toBe("/sign-in?error=1&next=%2F");
    const broken = await post("--nope\r\n", { "content-type": "multipart/form-data; boundary=x" });
    expect(broken.headers.get("location")).toBe("/sign-in?error=1&next=%2F");
  });

  it("over 16 KiB is refused (413) before it is all read, declared or streamed", async () => {
    const big = await form({ token: TEST_ADMIN_TOKEN, next: `/${"a".repeat(20_000)}` });
    expect(big.status).toBe(413);
    expect(big.headers.get("set-cookie")).toBeNull();
    expect(await big.text()).toMatch(/16,384 bytes/);

    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new TextEncoder().encode(`token=${"x".repeat(4096)}&`));
        if (pulled > 10_000) controller.close();
      },
    });
    const streamed = await POST(
      new Request(`${SITE}/api/auth/session`, {
        method: "POST",
        body: endless,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        duplex: "half",
      } as RequestInit),
    );
    expect(streamed.status).toBe(413);
    expect(pulled).toBeLessThan(20);
  });

  it("of a real sign-in fits well under the cap", async () => {
    const answer = await signIn(
      `/projects/alpha/compare?base=${Array.from({ length: 40 }, (_, i) => `run-${i}`).join(",")}&head=run-99`,
    );
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toMatch(/^\/projects\/alpha\/compare\?base=run-0,/);
  });
});

describe("a request another site sent", () => {
  it("cannot sign the browser out (403, no cookie cleared)", async () => {
    const senders: Record<string, string>[] = [
      { origin: "https://evil.example" },
      { "sec-fetch-site": "cross-site" },
      { origin: "null" },
    ];
    for (const headers of senders) {
      const answer = await form({ action: "sign-out" }, headers);
      expect(answer.status, JSON.stringify(headers)).toBe(403);
      expect(answer.headers.get("set-cookie")).toBeNull();
      expect(await answer.text()).toMatch(/another site/);
    }
  });

  it("cannot sign the browser in either (403: login CSRF)", async () => {
    const answer = await form(
      { token: TEST_ADMIN_TOKEN, next: "/" },
      { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
    );
    expect(answer.status).toBe(403);
    expect(answer.headers.get("set-cookie")).toBeNull();
  });

  it("is told apart from this site's own pages and from clients that send neither header", async () => {
    const own = await form({ action: "sign-out" }, { origin: SITE, "sec-fetch-site": "same-origin" });
    expect(own.status).toBe(303);
    expect(own.headers.get("set-cookie")).toMatch(new RegExp(`^${SESSION_COOKIE}=; .*Max-Age=0`));
    const byHost = await form(
      { token: TEST_ADMIN_TOKEN, next: "/x" },
      { origin: "http://localhost:3000", host: "localhost:3000" },
    );
    expect(byHost.headers.get("location")).toBe("/x");
    const curl = await form({ action: "sign-out" });
    expect(curl.status).toBe(303);
  });
});

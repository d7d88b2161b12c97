import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GET as start } from "../start/route";
import { GET as callback } from "./route";
import { getDb } from "@/server/db";
import { SESSION_COOKIE } from "@/server/domain/share";
import { rereadEnv } from "@/server/env";
import { sessionHolderOf } from "@/server/services/access";
import { captureLogLines } from "@/server/services/platform";
import { startOidcProvider } from "@/server/testing/oidc-provider";
import type { StartedOidcProvider } from "@/server/testing/oidc-provider";
import { setUpRouteTestDatabase } from "@/server/testing/rest-client";

// Signing in with an identity provider (issue 40, items 1 and 6): the whole flow over HTTP against a real
// provider (oidc-provider, in this process), the browser played by a fetch that follows redirects and
// keeps cookies per host; Benchtrack's two routes are called in-process at its public URL
// (http://bench.test, server/testing/rest-client.ts). Every check that refuses a forged answer is
// openid-client's: the provider signs the tampered ID tokens with its own key.
const SITE = "http://bench.test";
const CLIENT = { clientId: "benchtrack-test", clientSecret: "benchtrack-test-secret-0123456789" };
const OIDC_ENV = [
  "BENCHTRACK_OIDC_ALLOWED_DOMAINS",
  "BENCHTRACK_OIDC_ALLOWED_GROUPS",
  "BENCHTRACK_OIDC_ADMIN_GROUPS",
  "BENCHTRACK_OIDC_ADMIN_EMAILS",
];

let provider: StartedOidcProvider;
const env: Record<string, string> = {};

beforeAll(async () => {
  provider = await startOidcProvider({
    clients: [{ ...CLIENT, redirectUris: [`${SITE}/api/auth/oidc/callback`] }],
    accounts: [
      { id: "ada", email: "Ada@Example.com", name: "Ada Lovelace", groups: ["perf-team"] },
      { id: "grace", email: "grace@example.com", name: "Grace Hopper", groups: ["perf-team", "bench-admins"] },
      { id: "mallory", email: "mallory@elsewhere.org", name: "Mallory", groups: [] },
      { id: "unverified", email: "eve@example.com", emailVerified: false, name: "Eve", groups: ["perf-team"] },
    ],
  });
  Object.assign(env, {
    BENCHTRACK_OIDC_ISSUER: provider.issuer,
    BENCHTRACK_OIDC_CLIENT_ID: CLIENT.clientId,
    BENCHTRACK_OIDC_CLIENT_SECRET: CLIENT.clientSecret,
    BENCHTRACK_OIDC_NAME: "Test IdP",
  });
});
setUpRouteTestDatabase(env);
afterAll(async () => {
  await provider.close();
});

/** Sets the admission policy for the next sign-ins (unset: anyone, no admins by group). */
function usePolicy(policy: Partial<Record<(typeof OIDC_ENV)[number], string>>) {
  for (const name of OIDC_ENV) delete process.env[name];
  Object.assign(process.env, policy);
  rereadEnv();
}

beforeEach(() => {
  usePolicy({});
  provider.tamperIdTokens(null);
});

/** A browser: follows redirects, keeps cookies per host (as a browser does, whatever the port). */
class Browser {
  readonly cookies = new Map<string, Map<string, string>>();
  readonly visited: URL[] = [];

  async request(url: URL, init: { method?: string; body?: string } = {}): Promise<Response> {
    this.visited.push(url);
    const jar = this.cookies.get(url.hostname) ?? new Map<string, string>();
    this.cookies.set(url.hostname, jar);
    const headers = new Headers();
    if (jar.size > 0) headers.set("cookie", [...jar].map(([name, value]) => `${name}=${value}`).join("; "));
    if (init.body !== undefined) headers.set("content-type", "application/x-www-form-urlencoded");
    let response: Response;
    if (url.origin === SITE) {
      const request = new Request(url, { method: init.method ?? "GET", headers });
      if (url.pathname === "/api/auth/oidc/start") response = await start(request);
      else if (url.pathname === "/api/auth/oidc/callback") response = await callback(request);
      else response = new Response(`page ${url.pathname}`, { status: 200 });
    } else {
      response = await fetch(url, { method: init.method ?? "GET", headers, body: init.body, redirect: "manual" });
    }
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";");
      const separator = pair!.indexOf("=");
      const name = pair!.slice(0, separator).trim();
      const value = pair!.slice(separator + 1).trim();
      if (attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute)) || value === "") jar.delete(name);
      else jar.set(name, value);
    }
    return response;
  }

  /** Requests `url` and follows redirects until a page, or until `stopAt` says the next hop is not to be taken. */
  async open(
    url: URL,
    init: { method?: string; body?: string } = {},
    stopAt?: (next: URL) => boolean,
  ): Promise<{ url: URL; response: Response }> {
    let current = url;
    let response = await this.request(current, init);
    for (let hops = 0; response.status >= 300 && response.status < 400; hops++) {
      if (hops > 20) throw new Error("Too many redirects");
      const next = new URL(response.headers.get("location")!, current);
      if (stopAt?.(next)) return { url: next, response };
      current = next;
      response = await this.request(current);
    }
    return { url: current, response };
  }

  session(): string | undefined {
    return this.cookies.get("bench.test")?.get(SESSION_COOKIE);
  }
}

const isCallback = (url: URL) => url.origin === SITE && url.pathname === "/api/auth/oidc/callback";

/** Starts signing in and stops on the provider's login page. */
async function toLoginPage(browser: Browser, next = "/projects/alpha") {
  const landed = await browser.open(new URL(`${SITE}/api/auth/oidc/start?${new URLSearchParams({ next })}`));
  expect(landed.url.origin).toBe(provider.issuer);
  expect(landed.url.pathname).toMatch(/^\/interaction\//);
  expect(await landed.response.text()).toContain("Benchtrack's local identity provider");
  return landed.url;
}

/** Signs in as `fields.email` at the provider; stops before the callback when `stopAtCallback`. */
async function signIn(
  browser: Browser,
  fields: Record<string, string>,
  { next, stopAtCallback = false }: { next?: string; stopAtCallback?: boolean } = {},
) {
  const login = await toLoginPage(browser, next);
  return browser.open(
    login,
    { method: "POST", body: new URLSearchParams(fields).toString() },
    stopAtCallback ? isCallback : undefined,
  );
}

function refusalOf(url: URL): string | null {
  return url.origin === SITE && url.pathname === "/sign-in" ? url.searchParams.get("error") : null;
}

async function userRow(subject: string) {
  return (await getDb()).user.findUnique({ where: { issuer_subject: { issuer: provider.issuer, subject } } });
}

describe("signing in with the identity provider", () => {
  it("creates the person on first sign-in, signs the browser in and goes to next", async () => {
    const browser = new Browser();
    const landed = await signIn(browser, { email: "ada@example.com" });
    expect(landed.url.href).toBe(`${SITE}/projects/alpha`);
    const row = await userRow("ada");
    expect(row).toMatchObject({
      email: "ada@example.com",
      name: "Ada Lovelace",
      groups: ["perf-team"],
      serverAdmin: false,
      disabledAt: null,
    });
    expect(row!.lastSignInAt).toBeInstanceOf(Date);
    expect(await sessionHolderOf(await getDb(), browser.session())).toEqual({
      role: "user",
      user: { name: "Ada Lovelace", email: "ada@example.com", serverAdmin: false },
    });
    // The attempt's cookie is gone: the answer cannot be used again.
    expect(browser.cookies.get("bench.test")?.has("benchtrack_oidc")).toBe(false);
  });

  it("updates the same row on the next sign-in (name, groups, last sign-in)", async () => {
    await signIn(new Browser(), { email: "ada@example.com" });
    const first = await userRow("ada");
    provider.accounts.get("ada")!.name = "Ada King";
    provider.accounts.get("ada")!.groups = ["perf-team", "sre"];
    await signIn(new Browser(), { email: "ada@example.com" });
    const second = await userRow("ada");
    expect(second!.id).toBe(first!.id);
    expect(second).toMatchObject({ name: "Ada King", groups: ["perf-team", "sre"] });
    expect(second!.lastSignInAt!.getTime()).toBeGreaterThanOrEqual(first!.lastSignInAt!.getTime());
    provider.accounts.get("ada")!.name = "Ada Lovelace";
    provider.accounts.get("ada")!.groups = ["perf-team"];
  });

  it("keeps an unverified email out of the row, and never goes to another site after signing in", async () => {
    const landed = await signIn(new Browser(), { email: "eve@example.com" }, { next: "//evil.example/x" });
    expect(landed.url.href).toBe(`${SITE}/`);
    expect(await userRow("unverified")).toMatchObject({ email: null, name: "Eve" });
  });
});

describe("the start", () => {
  it("sends the browser to the provider with PKCE (S256), state and nonce, keeping them in a short-lived sealed cookie", async () => {
    const response = await start(new Request(`${SITE}/api/auth/oidc/start?next=%2Fprojects%2Fbeta`));
    expect(response.status).toBe(303);
    const location = new URL(response.headers.get("location")!);
    expect(`${location.origin}${location.pathname}`).toBe(`${provider.issuer}/auth`);
    expect(Object.fromEntries(location.searchParams)).toMatchObject({
      client_id: CLIENT.clientId,
      response_type: "code",
      redirect_uri: `${SITE}/api/auth/oidc/callback`,
      scope: "openid email profile",
      code_challenge_method: "S256",
    });
    for (const name of ["state", "nonce", "code_challenge"]) expect(location.searchParams.get(name)).toMatch(/^[\w-]{43,}$/);
    const cookie = response.headers.getSetCookie()[0]!;
    expect(cookie).toMatch(/^benchtrack_oidc=Fe26\.2\*/);
    expect(cookie).toContain("; Path=/api/auth/oidc; HttpOnly; SameSite=Lax; Max-Age=600");
    // Sealed: neither the state nor the verifier can be read from it.
    expect(cookie).not.toContain(location.searchParams.get("state")!);
  });

  it("says so when no provider is configured", async () => {
    delete process.env.BENCHTRACK_OIDC_ISSUER;
    delete process.env.BENCHTRACK_OIDC_CLIENT_ID;
    delete process.env.BENCHTRACK_OIDC_CLIENT_SECRET;
    rereadEnv();
    try {
      const response = await start(new Request(`${SITE}/api/auth/oidc/start`));
      expect(response.headers.get("location")).toBe("/sign-in?error=oidc-off");
      expect(response.headers.getSetCookie()).toEqual([]);
    } finally {
      Object.assign(process.env, env);
      rereadEnv();
    }
  });
});

describe("who is admitted", () => {
  it("admits only the allowed email domains, and only verified emails count", async () => {
    usePolicy({ BENCHTRACK_OIDC_ALLOWED_DOMAINS: "example.com" });
    expect(refusalOf((await signIn(new Browser(), { email: "mallory@elsewhere.org" })).url)).toBe("oidc-domain");
    expect(await userRow("mallory")).toBeNull();
    expect(refusalOf((await signIn(new Browser(), { email: "eve@example.com" })).url)).toBe("oidc-email-unverified");
    expect((await signIn(new Browser(), { email: "grace@example.com" })).url.pathname).toBe("/projects/alpha");
  });

  it("admits only members of the allowed groups; one removed from the group is refused at the next sign-in", async () => {
    usePolicy({ BENCHTRACK_OIDC_ALLOWED_GROUPS: "perf-team" });
    const browser = new Browser();
    expect((await signIn(browser, { email: "ada@example.com" })).url.pathname).toBe("/projects/alpha");
    const session = browser.session();
    provider.accounts.get("ada")!.groups = [];
    const refused = await signIn(new Browser(), { email: "ada@example.com" });
    expect(refusalOf(refused.url)).toBe("oidc-group");
    // The session signed in before goes on (docs/access.md) until an admin disables the person.
    expect((await sessionHolderOf(await getDb(), session)).role).toBe("user");
    provider.accounts.get("ada")!.groups = ["perf-team"];
  });

  it("makes members of the admin groups server admins, and demotes them when they leave the group", async () => {
    usePolicy({ BENCHTRACK_OIDC_ADMIN_GROUPS: "bench-admins" });
    const browser = new Browser();
    await signIn(browser, { email: "grace@example.com" });
    expect(await userRow("grace")).toMatchObject({ serverAdmin: true });
    expect((await sessionHolderOf(await getDb(), browser.session())).user?.serverAdmin).toBe(true);
    provider.accounts.get("grace")!.groups = ["perf-team"];
    await signIn(new Browser(), { email: "grace@example.com" });
    expect(await userRow("grace")).toMatchObject({ serverAdmin: false });
    provider.accounts.get("grace")!.groups = ["perf-team", "bench-admins"];
  });

  it("makes the admin emails server admins; without admin groups or emails, sign-in leaves a hand-made admin alone", async () => {
    usePolicy({ BENCHTRACK_OIDC_ADMIN_EMAILS: "ADA@example.com" });
    await signIn(new Browser(), { email: "ada@example.com" });
    expect(await userRow("ada")).toMatchObject({ serverAdmin: true });
    usePolicy({});
    await signIn(new Browser(), { email: "ada@example.com" });
    expect(await userRow("ada")).toMatchObject({ serverAdmin: true });
    await (await getDb()).user.update({ where: { id: (await userRow("ada"))!.id }, data: { serverAdmin: false } });
  });

  it("refuses a person an admin disabled, writes nothing, and their session opens nothing", async () => {
    const browser = new Browser();
    await signIn(browser, { email: "mallory@elsewhere.org" });
    const before = await userRow("mallory");
    await (await getDb()).user.update({ where: { id: before!.id }, data: { disabledAt: new Date() } });
    expect(await sessionHolderOf(await getDb(), browser.session())).toEqual({ role: null, user: null });
    expect(refusalOf((await signIn(new Browser(), { email: "mallory@elsewhere.org" })).url)).toBe("oidc-disabled");
    expect((await userRow("mallory"))!.lastSignInAt).toEqual(before!.lastSignInAt);
  });
});

describe("hostile answers are refused with a clear page, never a 500", () => {
  it("a forged state", async () => {
    const browser = new Browser();
    const stopped = await signIn(browser, { email: "ada@example.com" }, { stopAtCallback: true });
    const forged = new URL(stopped.url);
    forged.searchParams.set("state", "forged-state");
    const landed = await browser.open(forged);
    expect(refusalOf(landed.url)).toBe("oidc-state");
    expect(landed.url.searchParams.get("next")).toBe("/projects/alpha");
    expect(browser.session()).toBeUndefined();
    // The attempt is spent: the genuine answer no longer signs in either.
    expect(refusalOf((await browser.open(stopped.url)).url)).toBe("oidc-no-attempt");
  });

  it("a missing state, and a callback no browser started", async () => {
    const browser = new Browser();
    const stopped = await signIn(browser, { email: "ada@example.com" }, { stopAtCallback: true });
    const stateless = new URL(stopped.url);
    stateless.searchParams.delete("state");
    expect(refusalOf((await browser.open(stateless)).url)).toBe("oidc-state");
    expect(
      refusalOf((await new Browser().open(new URL(`${SITE}/api/auth/oidc/callback?code=abc&state=def`))).url),
    ).toBe("oidc-no-attempt");
  });

  it("a replayed code: the same answer twice in one browser, or with the attempt's cookie kept", async () => {
    const browser = new Browser();
    const stopped = await signIn(browser, { email: "ada@example.com" }, { stopAtCallback: true });
    const attempt = browser.cookies.get("bench.test")!.get("benchtrack_oidc")!;
    expect((await browser.open(stopped.url)).url.pathname).toBe("/projects/alpha");
    expect(refusalOf((await browser.open(stopped.url)).url)).toBe("oidc-no-attempt");
    // An attacker who kept the attempt's cookie too: the provider refuses the code's second use.
    const attacker = new Browser();
    attacker.cookies.set("bench.test", new Map([["benchtrack_oidc", attempt]]));
    const replayed = await attacker.open(stopped.url);
    expect(refusalOf(replayed.url)).toBe("oidc-code");
    expect(attacker.session()).toBeUndefined();
  });

  it("an ID token issued to another application (wrong audience)", async () => {
    provider.tamperIdTokens((claims) => ({ ...claims, aud: "some-other-app" }));
    const browser = new Browser();
    expect(refusalOf((await signIn(browser, { email: "ada@example.com" })).url)).toBe("oidc-audience");
    expect(browser.session()).toBeUndefined();
  });

  it("an expired ID token", async () => {
    const now = Math.floor(Date.now() / 1000);
    provider.tamperIdTokens((claims) => ({ ...claims, iat: now - 7200, exp: now - 3600 }));
    expect(refusalOf((await signIn(new Browser(), { email: "ada@example.com" })).url)).toBe("oidc-token-expired");
  });

  it("an ID token of another sign-in (nonce mismatch)", async () => {
    provider.tamperIdTokens((claims) => ({ ...claims, nonce: "another-sign-in" }));
    expect(refusalOf((await signIn(new Browser(), { email: "ada@example.com" })).url)).toBe("oidc-nonce");
  });

  it("the provider's refusal (access_denied)", async () => {
    const browser = new Browser();
    const login = await toLoginPage(browser);
    const landed = await browser.open(new URL(`${login.href}/abort`), { method: "POST", body: "" });
    expect(refusalOf(landed.url)).toBe("oidc-denied");
  });

  it("a provider that cannot be reached", async () => {
    process.env.BENCHTRACK_OIDC_ISSUER = "http://127.0.0.1:1";
    rereadEnv();
    try {
      const landed = await new Browser().open(new URL(`${SITE}/api/auth/oidc/start?next=/x`));
      expect(landed.url.href).toBe(`${SITE}/sign-in?error=oidc-unavailable&next=%2Fx`);
    } finally {
      process.env.BENCHTRACK_OIDC_ISSUER = provider.issuer;
      rereadEnv();
    }
  });
});

describe("the log", () => {
  it("holds no code, state, token or cookie of a sign-in", async () => {
    const capture = captureLogLines();
    const browser = new Browser();
    let stopped: { url: URL };
    try {
      stopped = await signIn(browser, { email: "ada@example.com" }, { stopAtCallback: true });
      const attempt = browser.cookies.get("bench.test")!.get("benchtrack_oidc")!;
      await browser.open(stopped.url);
      const attacker = new Browser();
      attacker.cookies.set("bench.test", new Map([["benchtrack_oidc", attempt]]));
      await attacker.open(stopped.url);
      provider.tamperIdTokens((claims) => ({ ...claims, aud: "some-other-app" }));
      await signIn(new Browser(), { email: "ada@example.com" });
    } finally {
      capture.stop();
    }
    const log = capture.lines.join("\n");
    expect(log).toContain('"route":"/api/auth/oidc/callback"');
    expect(log).toContain("oidc-code");
    const secrets = [stopped.url.searchParams.get("code")!, stopped.url.searchParams.get("state")!, browser.session()!];
    for (const secret of secrets) expect(log).not.toContain(secret);
    expect(log).not.toMatch(/eyJ[\w-]+\.[\w-]+/);
    expect(log).not.toContain("Fe26.2");
  });
});

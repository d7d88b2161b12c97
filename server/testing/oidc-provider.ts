import { createHash, createPrivateKey, generateKeyPairSync, randomBytes, sign } from "node:crypto";
import type { KeyObject } from "node:crypto";
import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";
import type { KoaContext } from "oidc-provider";

/**
 * A real OpenID Connect provider (oidc-provider, the certified library), in this process, on a port of
 * the caller's choosing (0: a free one): the tests sign in through it over HTTP, the e2e signs in through
 * its login page in Chromium, and `npm run oidc:dev` starts it for a newcomer. Its login page is its own
 * (a tiny interaction route, no password): pick one of the accounts it was given, or type any email,
 * name and groups. Consent is given automatically (the client is first-party). Authorization codes are
 * single-use and PKCE is required, as the library does.
 *
 * `tamperIdTokens` lets a test play the attacker who swaps the ID token the token endpoint answers for
 * one with other claims (another audience, an expiry in the past, another nonce), signed with the
 * provider's own key: only the relying party's checks (openid-client's) can then refuse it.
 */
export interface ProviderAccount {
  /** The `sub` claim. */
  id: string;
  email: string;
  emailVerified?: boolean;
  name: string;
  groups: string[];
}

export interface ProviderClient {
  clientId: string;
  /** Omitted: a public client (PKCE only). */
  clientSecret?: string;
  redirectUris: string[];
}

export interface StartedOidcProvider {
  /** The issuer URL: http://127.0.0.1:<port>. */
  issuer: string;
  port: number;
  /** The accounts offered on the login page, by id; change one's groups to play an admin at the provider. */
  accounts: Map<string, ProviderAccount>;
  /** Rewrites the claims of every ID token the token endpoint answers (null: leave them alone). */
  tamperIdTokens(rewrite: ((claims: Record<string, unknown>) => Record<string, unknown>) | null): void;
  close(): Promise<void>;
}

export async function startOidcProvider({
  port = 0,
  host = "127.0.0.1",
  clients,
  accounts,
}: {
  port?: number;
  host?: string;
  clients: ProviderClient[];
  accounts: ProviderAccount[];
}): Promise<StartedOidcProvider> {
  let handle: (request: IncomingMessage, response: ServerResponse) => void = (_request, response) => response.end();
  const server = createServer((request, response) => handle(request, response));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const boundPort = (server.address() as AddressInfo).port;
  const issuer = `http://${host}:${boundPort}`;

  const known = new Map(accounts.map((account) => [account.id, { ...account }]));
  const { privateKey, jwk } = signingKey();
  let rewrite: ((claims: Record<string, unknown>) => Record<string, unknown>) | null = null;

  const provider = new Provider(issuer, {
    clients: clients.map((client) => ({
      client_id: client.clientId,
      ...(client.clientSecret === undefined
        ? { token_endpoint_auth_method: "none" }
        : { client_secret: client.clientSecret }),
      redirect_uris: client.redirectUris,
      grant_types: ["authorization_code"],
      response_types: ["code"],
    })),
    async findAccount(_context, id) {
      const account = known.get(id);
      if (account === undefined) return undefined;
      return {
        accountId: id,
        claims: () => ({
          sub: id,
          email: account.email,
          email_verified: account.emailVerified ?? true,
          name: account.name,
          groups: account.groups,
        }),
      };
    },
    // The default scopes (openid email profile) bring the groups, as Keycloak's profile mapper does.
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name", "groups"] },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_context, interaction) => `/interaction/${interaction.uid}` },
    // A first-party client: consent is given once signed in, no second page.
    async loadExistingGrant(context) {
      const { client, session, result } = context.oidc;
      if (client === undefined || session?.accountId === undefined) return undefined;
      const grantId = result?.consent?.grantId ?? session.grantIdFor(client.clientId);
      if (grantId !== undefined) {
        const found = await context.oidc.provider.Grant.find(grantId);
        if (found !== undefined) return found;
      }
      const grant = new context.oidc.provider.Grant({ accountId: session.accountId, clientId: client.clientId });
      grant.addOIDCScope("openid email profile");
      await grant.save();
      return grant;
    },
    cookies: { keys: [randomBytes(32).toString("hex")] },
    jwks: { keys: [jwk] },
    ttl: {
      AuthorizationCode: 600,
      IdToken: 3600,
      AccessToken: 3600,
      Interaction: 3600,
      Session: 86_400,
      Grant: 86_400,
    },
    pkce: { required: () => true },
    renderError(context, out) {
      context.body = page(
        "Something went wrong",
        `<p>${escapeHtml(out.error ?? "error")}: ${escapeHtml(out.error_description ?? "")}</p>`,
      );
    },
  });

  provider.use(async (context: KoaContext, next) => {
    await next();
    if (rewrite === null || context.path !== "/token" || context.status !== 200) return;
    const body = context.body as { id_token?: string } | undefined;
    if (body?.id_token) body.id_token = resignedToken(body.id_token, rewrite, privateKey, jwk.kid);
  });

  const callback = provider.callback();
  handle = (request, response) => {
    const path = new URL(request.url ?? "/", issuer).pathname;
    const match = /^\/interaction\/([^/]+)(\/abort)?$/.exec(path);
    if (match === null) return callback(request, response);
    void interaction(request, response, match[2] !== undefined).catch((error: unknown) => {
      response.statusCode = 400;
      response.setHeader("content-type", "text/html; charset=utf-8");
      response.end(
        page("Sign-in failed", `<p>${escapeHtml(error instanceof Error ? error.message : String(error))}</p>`),
      );
    });
  };

  /** The login page (GET), signing in as the chosen or typed person (POST), or declining (POST …/abort). */
  async function interaction(request: IncomingMessage, response: ServerResponse, abort: boolean): Promise<void> {
    const details = await provider.interactionDetails(request, response);
    if (abort) {
      await provider.interactionFinished(
        request,
        response,
        { error: "access_denied", error_description: "The person declined to sign in" },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    if (request.method !== "POST") {
      response.setHeader("content-type", "text/html; charset=utf-8");
      response.setHeader("cache-control", "no-store");
      response.end(loginPage(details.uid, [...known.values()]));
      return;
    }
    const form = new URLSearchParams(await bodyOf(request));
    const email = (form.get("email") ?? "").trim().toLowerCase();
    if (!email.includes("@")) throw new Error("Enter an email address");
    let account = [...known.values()].find((candidate) => candidate.email.toLowerCase() === email);
    if (account === undefined) {
      const groups = (form.get("groups") ?? "")
        .split(",")
        .map((group) => group.trim())
        .filter((group) => group !== "");
      account = {
        id: `user-${createHash("sha256").update(email).digest("hex").slice(0, 16)}`,
        email,
        name: form.get("name")?.trim() || email.split("@")[0]!,
        groups,
      };
      account.emailVerified = form.get("unverified") === null;
      known.set(account.id, account);
    }
    await provider.interactionFinished(
      request,
      response,
      { login: { accountId: account.id } },
      { mergeWithLastSubmission: false },
    );
  }

  return {
    issuer,
    port: boundPort,
    accounts: known,
    tamperIdTokens(next) {
      rewrite = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An RS256 signing key, as the provider's JWKS holds it, and the same key to re-sign tampered tokens with. */
function signingKey(): { privateKey: KeyObject; jwk: Record<string, unknown> & { kid: string } } {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const kid = randomBytes(8).toString("hex");
  const jwk = { ...(privateKey.export({ format: "jwk" }) as Record<string, unknown>), kid, alg: "RS256", use: "sig" };
  return { privateKey: createPrivateKey({ key: jwk as never, format: "jwk" }), jwk };
}

/** The token with its claims rewritten and signed again with the provider's key (a token substitution). */
function resignedToken(
  token: string,
  rewrite: (claims: Record<string, unknown>) => Record<string, unknown>,
  privateKey: KeyObject,
  kid: string,
): string {
  const [, payload] = token.split(".");
  const claims = JSON.parse(Buffer.from(payload!, "base64url").toString("utf8")) as Record<string, unknown>;
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const input = `${encode({ alg: "RS256", typ: "JWT", kid })}.${encode(rewrite(claims))}`;
  return `${input}.${sign("sha256", Buffer.from(input), privateKey).toString("base64url")}`;
}

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > 64 * 1024) throw new Error("The form is too large");
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

function loginPage(uid: string, accounts: ProviderAccount[]): string {
  const action = `/interaction/${encodeURIComponent(uid)}`;
  const choices = accounts
    .map(
      (account) => `<form method="post" action="${action}" class="account">
  <input type="hidden" name="email" value="${escapeHtml(account.email)}">
  <button type="submit"><strong>${escapeHtml(account.name)}</strong> <span>${escapeHtml(account.email)}</span>
  <small>${account.groups.length === 0 ? "no groups" : `groups: ${escapeHtml(account.groups.join(", "))}`}</small></button>
</form>`,
    )
    .join("\n");
  return page(
    "Sign in",
    `<p class="lead">Benchtrack's local identity provider, for development and tests. No password: choose a person.</p>
${choices}
<form method="post" action="${action}" class="other">
  <h2>Someone else</h2>
  <label>Email <input type="email" name="email" required autocomplete="off"></label>
  <label>Name <input type="text" name="name" autocomplete="off"></label>
  <label>Groups <input type="text" name="groups" placeholder="comma-separated, e.g. perf-team, sre" autocomplete="off"></label>
  <label class="check"><input type="checkbox" name="unverified"> The email is not verified</label>
  <button type="submit">Sign in</button>
</form>
<form method="post" action="${action}/abort"><button type="submit" class="link">Cancel and go back</button></form>`,
  );
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Local identity provider</title>
<style>
  :root { color-scheme: light dark; --bg: #f4f4f5; --card: #fff; --text: #18181b; --muted: #52525b; --border: #d4d4d8; --accent: #7c3aed; }
  @media (prefers-color-scheme: dark) { :root { --bg: #18181b; --card: #27272a; --text: #f4f4f5; --muted: #a1a1aa; --border: #3f3f46; --accent: #a78bfa; } }
  body { margin: 0; font: 15px/1.5 system-ui, sans-serif; background: var(--bg); color: var(--text); }
  main { max-width: 26rem; margin: 3rem auto; padding: 1.5rem; background: var(--card); border: 1px solid var(--border); border-radius: 10px; }
  h1 { font-size: 1.25rem; margin: 0 0 .25rem; } h2 { font-size: 1rem; margin: 1.25rem 0 .5rem; }
  .lead, small, span { color: var(--muted); }
  .account button { display: block; width: 100%; text-align: left; margin: .5rem 0; padding: .6rem .8rem; border: 1px solid var(--border); border-radius: 8px; background: none; color: inherit; font: inherit; cursor: pointer; }
  .account button:hover { border-color: var(--accent); } .account small { display: block; }
  label { display: block; margin: .5rem 0; color: var(--muted); } label input[type=text], label input[type=email] { display: block; width: 100%; box-sizing: border-box; padding: .4rem .5rem; border: 1px solid var(--border); border-radius: 6px; background: none; color: var(--text); font: inherit; }
  .other > button { margin-top: .5rem; padding: .45rem .9rem; border: 0; border-radius: 6px; background: var(--accent); color: #fff; font: inherit; cursor: pointer; }
  .link { margin-top: 1rem; border: 0; background: none; color: var(--muted); text-decoration: underline; font: inherit; cursor: pointer; padding: 0; }
</style></head>
<body><main><h1>${escapeHtml(title)}</h1>
${body}
</main></body></html>`;
}

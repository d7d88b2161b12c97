import { sealData, unsealData } from "iron-session";
import * as client from "openid-client";
import { z } from "zod";
import type { OidcRefusal, SignInPolicy } from "../../domain/access/oidc";
import { ADMISSION_REFUSALS, admissionOf, identityOfClaims, signInDecidesServerAdmin } from "../../domain/access/oidc";
import { OIDC_CALLBACK_PATH, OIDC_START_PATH } from "../../domain/urls";
import { getEnv } from "../../env";
import type { PrismaClient } from "../../generated/prisma/client";
import { getLogger } from "../platform";
import { safeNextPath } from "./auth";
import { sealPassword, sealSession } from "./sessions";

/**
 * Signing a person in with the team's identity provider (OpenID Connect, authorization code flow with
 * PKCE), through openid-client: it discovers the provider, builds the authorization URL, and on the way
 * back checks state, PKCE (the provider checks the verifier), the ID token's signature, issuer, audience,
 * lifetime and nonce. What is left here: the short-lived transaction (a sealed cookie holding state, nonce,
 * the PKCE verifier and where to go next), the claims → person → users row, and the session.
 *
 * Nothing secret is logged: a refusal logs its code and openid-client's error code, never the error
 * object (its cause can hold the callback's parameters, code included) nor a token.
 */
export const OIDC_TRANSACTION_COOKIE = "benchtrack_oidc";
/** How long a sign-in may take at the provider (typing a password, a second factor). */
export const OIDC_TRANSACTION_TTL_SECONDS = 600;
export { OIDC_CALLBACK_PATH, OIDC_START_PATH };
/** Longest the provider may take to answer discovery, the token and userinfo requests, in seconds. */
const PROVIDER_TIMEOUT_SECONDS = 10;

interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string | undefined;
  scopes: string[];
  groupsClaim: string;
  policy: SignInPolicy;
}

/** The identity provider's settings, or null when none is configured (BENCHTRACK_OIDC_ISSUER unset). */
function oidcSettings(): OidcSettings | null {
  const env = getEnv();
  if (!env.BENCHTRACK_OIDC_ISSUER || !env.BENCHTRACK_OIDC_CLIENT_ID) return null;
  return {
    issuer: env.BENCHTRACK_OIDC_ISSUER,
    clientId: env.BENCHTRACK_OIDC_CLIENT_ID,
    clientSecret: env.BENCHTRACK_OIDC_CLIENT_SECRET,
    scopes: env.BENCHTRACK_OIDC_SCOPES,
    groupsClaim: env.BENCHTRACK_OIDC_GROUPS_CLAIM,
    policy: {
      allowedDomains: env.BENCHTRACK_OIDC_ALLOWED_DOMAINS,
      allowedGroups: env.BENCHTRACK_OIDC_ALLOWED_GROUPS,
      adminGroups: env.BENCHTRACK_OIDC_ADMIN_GROUPS,
      adminEmails: env.BENCHTRACK_OIDC_ADMIN_EMAILS,
    },
  };
}

/** What the sign-in page offers: the provider's button label, or null without one. */
export function oidcSignInOffer(): { name: string } | null {
  return oidcSettings() === null ? null : { name: getEnv().BENCHTRACK_OIDC_NAME };
}

// The provider's metadata, discovered once per process (per issuer and client); a failed discovery is
// forgotten, so the next sign-in tries again.
let discovered: { key: string; configuration: Promise<client.Configuration> } | undefined;

function providerConfiguration(settings: OidcSettings): Promise<client.Configuration> {
  const key = JSON.stringify([settings.issuer, settings.clientId, settings.clientSecret ?? null]);
  if (discovered?.key === key) return discovered.configuration;
  const issuer = new URL(settings.issuer);
  // http:// is allowed only to a provider on this machine (server/env.ts refuses any other).
  const execute = issuer.protocol === "http:" ? [client.allowInsecureRequests] : [];
  const authentication =
    settings.clientSecret === undefined ? client.None() : client.ClientSecretBasic(settings.clientSecret);
  const configuration = client.discovery(issuer, settings.clientId, undefined, authentication, {
    execute,
    timeout: PROVIDER_TIMEOUT_SECONDS,
  });
  discovered = { key, configuration };
  configuration.catch(() => {
    if (discovered?.configuration === configuration) discovered = undefined;
  });
  return configuration;
}

const transactionSchema = z.object({
  state: z.string(),
  nonce: z.string(),
  verifier: z.string(),
  next: z.string(),
  expiresAt: z.number(),
});

/** Where the provider sends the browser back: BENCHTRACK_PUBLIC_URL (or the request's host) + the callback path. */
export function oidcRedirectUri(baseUrl: string): string {
  return `${baseUrl}${OIDC_CALLBACK_PATH}`;
}

export type OidcStart = { location: string; transaction: string } | { refusal: OidcRefusal; next: string };

/**
 * The first leg: the provider's authorization URL (with state, nonce and the PKCE challenge) and the
 * sealed transaction the browser keeps until it comes back (OIDC_TRANSACTION_COOKIE).
 */
export async function beginOidcSignIn({ next, baseUrl }: { next: string | null; baseUrl: string }): Promise<OidcStart> {
  const safeNext = safeNextPath(next);
  const settings = oidcSettings();
  if (settings === null) return { refusal: "oidc-off", next: safeNext };
  let configuration: client.Configuration;
  try {
    configuration = await providerConfiguration(settings);
  } catch (error) {
    logRefusal("oidc-unavailable", error);
    return { refusal: "oidc-unavailable", next: safeNext };
  }
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const location = client.buildAuthorizationUrl(configuration, {
    redirect_uri: oidcRedirectUri(baseUrl),
    scope: settings.scopes.join(" "),
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    state,
    nonce,
  });
  const expiresAt = Date.now() + OIDC_TRANSACTION_TTL_SECONDS * 1000;
  const transaction = await sealData(
    { state, nonce, verifier, next: safeNext, expiresAt },
    { password: sealPassword(), ttl: OIDC_TRANSACTION_TTL_SECONDS },
  );
  return { location: location.href, transaction };
}

export type OidcCompletion = { session: string; next: string; userId: string } | { refusal: OidcRefusal; next: string };

/**
 * The way back: the provider's answer (`query`, the callback's parameters) checked against the
 * transaction this browser kept, the code exchanged, the ID token checked, and the person admitted
 * (or not) and recorded: their users row is found by issuer and subject, created on first sign-in, and
 * its email, name, groups and last sign-in refreshed each time (serverAdmin too when the server names
 * admins by group or email: domain/access/oidc.ts). A disabled person is refused before anything is
 * written. The answer is the sealed session, or the refusal and where to go after signing in.
 */
export async function completeOidcSignIn(
  db: PrismaClient,
  { query, transaction, baseUrl }: { query: URLSearchParams; transaction: string | null | undefined; baseUrl: string },
): Promise<OidcCompletion> {
  const settings = oidcSettings();
  const kept = await unsealTransaction(transaction);
  const next = kept?.next ?? "/";
  if (settings === null) return { refusal: "oidc-off", next };
  if (kept === null) {
    // No attempt of this browser's to match the answer to: a replayed or forged callback, or an expired
    // attempt. A provider's own refusal still says what it is.
    const error = query.get("error");
    const refusal =
      error === null ? "oidc-no-attempt" : error === "access_denied" ? "oidc-denied" : "oidc-provider-error";
    logRefusal(refusal, null);
    return { refusal, next };
  }
  let claims: Record<string, unknown>;
  try {
    const configuration = await providerConfiguration(settings);
    // The URL the provider was asked to redirect to, with its answer: openid-client checks the answer's
    // parameters and sends this redirect_uri to the token endpoint (behind a proxy, request.url differs).
    const currentUrl = new URL(oidcRedirectUri(baseUrl));
    for (const [name, value] of query) currentUrl.searchParams.append(name, value);
    const tokens = await client.authorizationCodeGrant(configuration, currentUrl, {
      pkceCodeVerifier: kept.verifier,
      expectedState: kept.state,
      expectedNonce: kept.nonce,
      idTokenExpected: true,
    });
    const idClaims = tokens.claims() as Record<string, unknown> | undefined;
    if (idClaims === undefined) return { refusal: "oidc-token", next };
    claims = idClaims;
    // Some providers (Okta, oidc-provider) keep email, name and groups out of the ID token when an access
    // token comes with it: the userinfo endpoint has them (for the same subject: openid-client checks).
    const missing = !("email" in claims) || !("name" in claims) || !(settings.groupsClaim.split(".")[0]! in claims);
    if (missing && configuration.serverMetadata().userinfo_endpoint && typeof claims.sub === "string") {
      const userinfo = await client.fetchUserInfo(configuration, tokens.access_token, claims.sub);
      claims = { ...(userinfo as Record<string, unknown>), ...claims };
    }
  } catch (error) {
    const refusal = refusalOfError(error);
    logRefusal(refusal, error);
    return { refusal, next };
  }
  const identity = identityOfClaims(claims, settings.groupsClaim);
  if (identity === null) return { refusal: "oidc-token", next };
  const issuer = settings.issuer;
  const existing = await db.user.findUnique({
    where: { issuer_subject: { issuer, subject: identity.subject } },
    select: { id: true, disabledAt: true },
  });
  if (existing?.disabledAt) {
    logRefusal("oidc-disabled", null);
    return { refusal: "oidc-disabled", next };
  }
  const admission = admissionOf(identity, settings.policy);
  if (!admission.admitted) {
    logRefusal(ADMISSION_REFUSALS[admission.refusal], null);
    return { refusal: ADMISSION_REFUSALS[admission.refusal], next };
  }
  const now = new Date();
  const fields = {
    email: identity.email,
    name: identity.name,
    groups: identity.groups,
    lastSignInAt: now,
    ...(signInDecidesServerAdmin(settings.policy) ? { serverAdmin: admission.serverAdmin } : {}),
  };
  const upsert = () =>
    db.user.upsert({
      where: { issuer_subject: { issuer, subject: identity.subject } },
      create: { issuer, subject: identity.subject, ...fields },
      update: fields,
      select: { id: true, disabledAt: true },
    });
  // Two first sign-ins of one person at once: the loser of the insert race updates the winner's row.
  const user = await upsert().catch((error: unknown) => {
    if ((error as { code?: unknown }).code === "P2002") return upsert();
    throw error;
  });
  if (user.disabledAt) return { refusal: "oidc-disabled", next };
  getLogger().info({ userId: user.id, serverAdmin: admission.serverAdmin }, "signed in with the identity provider");
  return { session: await sealSession({ role: "user", userId: user.id }), next, userId: user.id };
}

async function unsealTransaction(sealed: string | null | undefined) {
  if (!sealed) return null;
  const data = await unsealData<unknown>(sealed, { password: sealPassword(), ttl: OIDC_TRANSACTION_TTL_SECONDS }).catch(
    () => null,
  );
  const parsed = transactionSchema.safeParse(data);
  if (!parsed.success || parsed.data.expiresAt <= Date.now()) return null;
  return { ...parsed.data, next: safeNextPath(parsed.data.next) };
}

/** The refusal an error of openid-client (or of the network under it) stands for. */
function refusalOfError(error: unknown): OidcRefusal {
  if (error instanceof client.AuthorizationResponseError)
    return error.error === "access_denied" ? "oidc-denied" : "oidc-provider-error";
  if (error instanceof client.ResponseBodyError)
    return error.error === "invalid_grant" ? "oidc-code" : "oidc-provider-error";
  if (error instanceof client.ClientError) {
    const cause = error.cause as { message?: unknown; cause?: { claim?: unknown } } | undefined;
    switch (error.code) {
      case "OAUTH_INVALID_RESPONSE":
        return typeof cause?.message === "string" && cause.message.includes('"state"') ? "oidc-state" : "oidc-token";
      case "OAUTH_JWT_CLAIM_COMPARISON_FAILED":
        return cause?.cause?.claim === "aud"
          ? "oidc-audience"
          : cause?.cause?.claim === "nonce"
            ? "oidc-nonce"
            : "oidc-token";
      case "OAUTH_JWT_TIMESTAMP_CHECK_FAILED":
        return "oidc-token-expired";
      case "OAUTH_RESPONSE_IS_NOT_CONFORM":
      case "OAUTH_RESPONSE_IS_NOT_JSON":
        return "oidc-provider-error";
      default:
        return "oidc-token";
    }
  }
  // fetch failed: the provider is down or unreachable (TypeError), or took too long (TimeoutError).
  if (error instanceof TypeError || (error instanceof Error && error.name === "TimeoutError"))
    return "oidc-unavailable";
  return "oidc-token";
}

/** One warning line: the refusal and openid-client's error code and message, never the error object. */
function logRefusal(refusal: OidcRefusal, error: unknown): void {
  const code = error instanceof Error ? ((error as { code?: unknown }).code ?? error.name) : undefined;
  const reason =
    error instanceof client.AuthorizationResponseError || error instanceof client.ResponseBodyError
      ? error.error
      : error instanceof Error
        ? error.message
        : undefined;
  getLogger().warn({ refusal, code, reason }, "sign-in with the identity provider refused");
}

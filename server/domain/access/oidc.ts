/**
 * Signing in with an identity provider (OpenID Connect), the pure part: what a provider's claims say about
 * a person, whether this server admits them, whether they are a server admin, and the refusals a sign-in
 * can end in, each with the sentence the sign-in page shows. The protocol's checks (state, nonce, PKCE,
 * the ID token's signature, issuer, audience and lifetime) are openid-client's, in
 * server/services/access/oidc-sign-in.ts.
 */

/** A person as the provider describes them, normalized. */
export interface ProviderIdentity {
  /** The `sub` claim: with the issuer, who this is for good (emails and names change). */
  subject: string;
  /** Lower-cased; null unless the provider vouches for it (`email_verified` true). */
  email: string | null;
  name: string | null;
  groups: string[];
}

/** Who this server admits and makes server admin (BENCHTRACK_OIDC_* in server/env.ts). */
export interface SignInPolicy {
  /** Lower-case email domains; empty: any. */
  allowedDomains: string[];
  /** Groups; empty: any. */
  allowedGroups: string[];
  adminGroups: string[];
  /** Lower-case emails. */
  adminEmails: string[];
}

/** Longest name and group kept: a provider's claim is data from outside. */
const MAX_CLAIM_CHARS = 200;
const MAX_GROUPS = 500;

/**
 * The person a provider's claims (the ID token's, completed by the userinfo endpoint's) describe, or null
 * without a `sub`. The email counts only when `email_verified` is true (Cognito sends the string "true"):
 * an unverified address would let anyone who typed the boss's email be the boss. Groups come from
 * `groupsClaim`, a claim's name or a dotted path to a nested one (Keycloak's `realm_access.roles`): an
 * array of strings, or one string.
 */
export function identityOfClaims(claims: Record<string, unknown>, groupsClaim: string): ProviderIdentity | null {
  const subject = claims.sub;
  if (typeof subject !== "string" || subject === "") return null;
  const verified = claims.email_verified === true || claims.email_verified === "true";
  const email =
    verified && typeof claims.email === "string" && claims.email.includes("@")
      ? claims.email.trim().toLowerCase()
      : null;
  return { subject, email, name: nameOfClaims(claims), groups: groupsOfClaim(claimAt(claims, groupsClaim)) };
}

function nameOfClaims(claims: Record<string, unknown>): string | null {
  const text = (value: unknown) => (typeof value === "string" && value.trim() !== "" ? value.trim() : null);
  const given = [text(claims.given_name), text(claims.family_name)].filter((part) => part !== null).join(" ");
  const name =
    text(claims.name) ?? (given === "" ? null : given) ?? text(claims.preferred_username) ?? text(claims.nickname);
  return name === null ? null : name.slice(0, MAX_CLAIM_CHARS);
}

/** The claim named `path`: a top-level claim of that exact name first, else the dotted path into nested objects. */
function claimAt(claims: Record<string, unknown>, path: string): unknown {
  if (path in claims) return claims[path];
  let value: unknown = claims;
  for (const key of path.split(".")) {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

function groupsOfClaim(value: unknown): string[] {
  const items = typeof value === "string" ? [value] : Array.isArray(value) ? value : [];
  const groups = items.filter(
    (item): item is string => typeof item === "string" && item !== "" && item.length <= MAX_CLAIM_CHARS,
  );
  return [...new Set(groups)].slice(0, MAX_GROUPS);
}

/** Why a person the provider signed in is not admitted here. */
export type AdmissionRefusal = "email-unverified" | "domain" | "group";

/**
 * Whether this server admits `identity`, and whether they are a server admin. Both restrictions apply
 * when both are set: the email's domain must be allowed AND the person in an allowed group. Admin groups
 * and emails do not bypass the restrictions.
 */
export function admissionOf(
  identity: ProviderIdentity,
  policy: SignInPolicy,
): { admitted: true; serverAdmin: boolean } | { admitted: false; refusal: AdmissionRefusal } {
  if (policy.allowedDomains.length > 0) {
    if (identity.email === null) return { admitted: false, refusal: "email-unverified" };
    const domain = identity.email.slice(identity.email.lastIndexOf("@") + 1);
    if (!policy.allowedDomains.includes(domain)) return { admitted: false, refusal: "domain" };
  }
  if (policy.allowedGroups.length > 0 && !identity.groups.some((group) => policy.allowedGroups.includes(group))) {
    return { admitted: false, refusal: "group" };
  }
  const serverAdmin =
    identity.groups.some((group) => policy.adminGroups.includes(group)) ||
    (identity.email !== null && policy.adminEmails.includes(identity.email));
  return { admitted: true, serverAdmin };
}

/**
 * Whether signing in sets a person's serverAdmin at all: only when the server names its admins by group or
 * email (then the provider is the source of truth, and leaving the group demotes at the next sign-in).
 * Otherwise server admins are made by hand and signing in never touches the flag.
 */
export function signInDecidesServerAdmin(policy: SignInPolicy): boolean {
  return policy.adminGroups.length > 0 || policy.adminEmails.length > 0;
}

/** Every way a sign-in through the identity provider can be refused: `/sign-in?error=<code>`. */
export const OIDC_REFUSALS = {
  "oidc-off": "Signing in with an identity provider is not set up on this server: sign in with a token.",
  "oidc-unavailable":
    "The identity provider could not be reached. Try again in a moment; if it goes on, tell this server's administrator.",
  "oidc-denied":
    "The identity provider did not sign you in (you declined, or it refused). Try again, or sign in with a token.",
  "oidc-provider-error":
    "The identity provider answered with an error instead of signing you in. Try again; if it goes on, tell this server's administrator.",
  "oidc-no-attempt":
    "This sign-in is not one this browser started, or it was already used or took longer than 10 minutes. Start again from this page.",
  "oidc-state":
    "The answer from the identity provider does not belong to the sign-in this browser started (its state does not match). Start again from this page.",
  "oidc-code":
    "The identity provider refused the sign-in code: it was already used, or it expired. Start again from this page.",
  "oidc-audience":
    "The identity provider's ID token was issued to another application, not this Benchtrack. Start again; if it goes on, tell this server's administrator.",
  "oidc-nonce":
    "The identity provider's ID token was not issued for this sign-in (its nonce does not match). Start again from this page.",
  "oidc-token-expired":
    "The identity provider's ID token had expired when it arrived. Check this server's clock, then start again.",
  "oidc-token":
    "The identity provider's answer failed its checks (signature, issuer or format). Start again; if it goes on, tell this server's administrator.",
  "oidc-email-unverified":
    "Your identity provider gave no verified email address, and this Benchtrack admits people by their email's domain.",
  "oidc-domain":
    "Your email address's domain is not one this Benchtrack admits. Ask its administrator, or sign in with another account.",
  "oidc-group":
    "You are not in a group this Benchtrack admits. Ask your administrator to add you to one, or sign in with another account.",
  "oidc-disabled": "Your account on this Benchtrack was disabled by an administrator.",
} as const;

export type OidcRefusal = keyof typeof OIDC_REFUSALS;

export function isOidcRefusal(code: string | null | undefined): code is OidcRefusal {
  return typeof code === "string" && Object.hasOwn(OIDC_REFUSALS, code);
}

/** The refusal of an admission decision. */
export const ADMISSION_REFUSALS: Record<AdmissionRefusal, OidcRefusal> = {
  "email-unverified": "oidc-email-unverified",
  domain: "oidc-domain",
  group: "oidc-group",
};

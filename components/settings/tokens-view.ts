import type { RouterOutputs } from "@/server/api/root";
import { TOKEN_SCOPES, scopeWords } from "@/server/domain/access/roles";
import type { TokenScope } from "@/server/domain/access/roles";
import { formatRelativeTime } from "@/server/domain/format";
import { absoluteUrl, apiPaths } from "@/server/domain/urls";

/**
 * The Tokens panel's words, shaped by pure functions from token.list and the roles' tables
 * (server/domain/access/roles.ts): the panel only draws them.
 */
export type TokenRow = RouterOutputs["token"]["list"][number];

/** One checkbox of the create form: a scope and what it opens, in the words refusals use. */
export interface ScopeChoice {
  scope: TokenScope;
  opens: string;
}

/** Every scope with what it opens ("upload runs, post markers and annotations"), from roles.ts's scopeWords. */
export function scopeChoices(): ScopeChoice[] {
  return TOKEN_SCOPES.map((scope) => ({ scope, opens: scopeWords(scope) }));
}

/** The expiry select's choices: a number of days, never, or a date picked by hand. */
export const EXPIRY_CHOICES = [
  { value: "never", label: "never" },
  { value: "30", label: "in 30 days" },
  { value: "90", label: "in 90 days" },
  { value: "365", label: "in 365 days" },
  { value: "custom", label: "on a date…" },
] as const;
export type ExpiryChoice = (typeof EXPIRY_CHOICES)[number]["value"];

/** The create call's expiry fields for a choice (`date`: the custom date, "2027-06-30"). */
export function expiryInput(choice: ExpiryChoice, date: string): { expiresInDays?: number; expiresAt?: string } {
  if (choice === "never") return {};
  if (choice === "custom") return { expiresAt: date };
  return { expiresInDays: Number(choice) };
}

/** A token's expiry in words, and whether to show it as a problem: "expires in 29 d", "expired 2 d ago", "never expires". */
export function describeExpiry(row: Pick<TokenRow, "expiresAt" | "status">, now: Date | number): { text: string; isExpired: boolean } {
  if (row.expiresAt === null) return { text: "never expires", isExpired: false };
  if (row.status === "expired") return { text: `expired ${formatRelativeTime(row.expiresAt, now)}`, isExpired: true };
  return { text: `expires ${formatRelativeTime(row.expiresAt, now)}`, isExpired: false };
}

/** "last used 3 h ago", or "never used". */
export function describeLastUse(lastUsedAt: Date | null, now: Date | number): string {
  return lastUsedAt === null ? "never used" : `last used ${formatRelativeTime(lastUsedAt, now)}`;
}

/** "created 2026-11-30 by admin session" (who made it, where it was recorded). */
export function describeCreation(row: Pick<TokenRow, "createdAt" | "createdBy">): string {
  return `created ${row.createdAt.toISOString().slice(0, 10)}${row.createdBy ? ` by ${row.createdBy}` : ""}`;
}

/**
 * What to run with a new token: with the upload scope, an upload of a k6 summary (the format is detected
 * from the content); a token that cannot upload, a read of the project's runs instead.
 */
export function tokenSnippet(baseUrl: string, slug: string, token: string, scopes: readonly string[]): string {
  const exported = `export BENCHTRACK_TOKEN=${token}`;
  if (scopes.includes("upload")) {
    return `${exported}
curl --data-binary @summary.json -H "Authorization: Bearer $BENCHTRACK_TOKEN" \\
  "${absoluteUrl(baseUrl, apiPaths.runs(slug, "label=baseline&branch=main"))}"`;
  }
  return `${exported}
curl -H "Authorization: Bearer $BENCHTRACK_TOKEN" "${absoluteUrl(baseUrl, apiPaths.runs(slug))}"`;
}

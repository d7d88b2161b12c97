import { describe, expect, it } from "vitest";
import { ACTION_WORDS, SCOPE_ACTIONS, TOKEN_SCOPES } from "@/server/domain/access/roles";
import { describeCreation, describeExpiry, describeLastUse, expiryInput, scopeChoices, tokenSnippet } from "./tokens-view";

const NOW = new Date("2026-11-30T12:00:00Z");
const DAY_MS = 86_400_000;

describe("the Tokens panel's words", () => {
  it("offers every scope with what it opens, in the roles' own words", () => {
    const choices = scopeChoices();
    expect(choices.map((choice) => choice.scope)).toEqual([...TOKEN_SCOPES]);
    expect(choices[0]).toEqual({ scope: "upload", opens: `${ACTION_WORDS.upload}, ${ACTION_WORDS.mark}` });
    for (const choice of choices) expect(choice.opens.split(", ")).toEqual(SCOPE_ACTIONS[choice.scope].map((action) => ACTION_WORDS[action]));
  });

  it("turns the expiry choice into the create call's fields", () => {
    expect(expiryInput("never", "")).toEqual({});
    expect(expiryInput("90", "")).toEqual({ expiresInDays: 90 });
    expect(expiryInput("custom", "2027-06-30")).toEqual({ expiresAt: "2027-06-30" });
  });

  it("says when a token expires or expired, when it was last used, and who made it", () => {
    expect(describeExpiry({ expiresAt: null, status: "active" }, NOW)).toEqual({ text: "never expires", isExpired: false });
    expect(describeExpiry({ expiresAt: new Date(NOW.getTime() + 29.5 * DAY_MS), status: "active" }, NOW)).toEqual({ text: "expires in 29 d", isExpired: false });
    expect(describeExpiry({ expiresAt: new Date(NOW.getTime() - 2 * DAY_MS), status: "expired" }, NOW)).toEqual({ text: "expired 2 d ago", isExpired: true });
    // A revoked token keeps its expiry's words, not flagged.
    expect(describeExpiry({ expiresAt: new Date(NOW.getTime() - 2 * DAY_MS), status: "revoked" }, NOW).isExpired).toBe(false);
    expect(describeLastUse(null, NOW)).toBe("never used");
    expect(describeLastUse(new Date(NOW.getTime() - 3 * 3_600_000), NOW)).toBe("last used 3 h ago");
    expect(describeCreation({ createdAt: NOW, createdBy: "Ada Lovelace <ada@example.com>" })).toBe("created 2026-11-30 by Ada Lovelace <ada@example.com>");
    expect(describeCreation({ createdAt: NOW, createdBy: null })).toBe("created 2026-11-30");
  });

  it("shows an upload with a token that may upload, a read with one that may not", () => {
    expect(tokenSnippet("https://bench.example.com/", "listings", "bt_x", ["upload"])).toBe(
      'export BENCHTRACK_TOKEN=bt_x\ncurl --data-binary @summary.json -H "Authorization: Bearer $BENCHTRACK_TOKEN" \\\n  "https://bench.example.com/api/v1/projects/listings/runs?label=baseline&branch=main"',
    );
    expect(tokenSnippet("https://bench.example.com", "listings", "bt_x", ["read"])).toBe(
      'export BENCHTRACK_TOKEN=bt_x\ncurl -H "Authorization: Bearer $BENCHTRACK_TOKEN" "https://bench.example.com/api/v1/projects/listings/runs"',
    );
  });
});

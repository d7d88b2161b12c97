import { describe, expect, it } from "vitest";
import { MAX_SHARE_TOKEN_LENGTH, SHARE_ID_PATTERN, newShareId, normalizeShareToken } from "./share-grants";

describe("a share link's id", () => {
  it("is 22 URL-safe characters, drawn anew each time", () => {
    const ids = new Set(Array.from({ length: 1000 }, () => newShareId()));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(SHARE_ID_PATTERN);
    // URL-safe: nothing to encode in a query.
    for (const id of ids) expect(encodeURIComponent(id)).toBe(id);
  });
});

describe("a share token as sent", () => {
  it("is taken as copied from a URL: blanks trimmed, percent-encoding undone once", () => {
    expect(normalizeShareToken(" abc_DEF-123 ")).toBe("abc_DEF-123");
    expect(normalizeShareToken("Fe26.2**a*b%7E2")).toBe("Fe26.2**a*b~2");
    expect(normalizeShareToken("%41%42")).toBe("AB");
    expect(normalizeShareToken("%2541")).toBe("%41");
  });

  it("is none when nothing usable is left: empty, malformed encoding, too long", () => {
    for (const raw of [null, undefined, "", "   ", "%", "%E0%A4%A", "x".repeat(MAX_SHARE_TOKEN_LENGTH + 1), "%41".repeat(MAX_SHARE_TOKEN_LENGTH * 2)]) {
      expect(normalizeShareToken(raw)).toBeNull();
    }
    expect(normalizeShareToken("x".repeat(MAX_SHARE_TOKEN_LENGTH))).toHaveLength(MAX_SHARE_TOKEN_LENGTH);
  });
});

import { describe, expect, it } from "vitest";
import { COMMENT_LIMIT, hasMarker, MAX_HISTORY, nextCommentBody, parseEntries } from "./living-comment.mjs";

const MARKER = "<!-- benchtrack:listings:k6:baseline -->";

/** Markdown as Benchtrack answers it: the verdict first, the marker last. */
function result(runId: string, verdict = "PASS", filler = 0) {
  const rows = Array.from(
    { length: filler },
    (_, index) => `| GET /api/${"x".repeat(60)}/${index} | 100 | 10.0 | 1.0 ms | 2.0 ms | 3.0 ms | 0.00% |`,
  );
  return {
    marker: MARKER,
    runId,
    markdown: `### ${verdict === "PASS" ? "✅" : "❌"} Benchtrack: **${verdict}**\n\nrun ${runId}\n${rows.join("\n")}\n\n${MARKER}\n`,
  };
}

describe("nextCommentBody", () => {
  it("starts a comment with the result and the marker once", () => {
    const body = nextCommentBody(null, result("run1"));
    expect(body).toBe(
      `<!-- benchtrack:entry run=run1 -->\n\n### ✅ Benchtrack: **PASS**\n\nrun run1\n\n<!-- /benchtrack:entry -->\n\n${MARKER}\n`,
    );
    expect(hasMarker(body, MARKER)).toBe(true);
  });

  it("puts the new result on top and folds the earlier ones, newest first", () => {
    let body = nextCommentBody(null, result("run1"));
    body = nextCommentBody(body, result("run2", "FAIL"));
    body = nextCommentBody(body, result("run3"));
    expect(parseEntries(body).map((entry) => entry.runId)).toEqual(["run3", "run2", "run1"]);
    const [current, history] = body.split("<details>");
    expect(current).toContain("run run3");
    expect(current).not.toContain("run run2");
    expect(history).toContain("<summary>Earlier results on this pull request (2, newest first)</summary>");
    expect(history!.indexOf("run run2")).toBeLessThan(history!.indexOf("run run1"));
    expect(body.split(MARKER)).toHaveLength(2);
  });

  it("replaces a replayed run instead of stacking a copy", () => {
    let body = nextCommentBody(null, result("run1"));
    body = nextCommentBody(body, result("run2"));
    body = nextCommentBody(body, result("run2"));
    expect(parseEntries(body).map((entry) => entry.runId)).toEqual(["run2", "run1"]);
  });

  it("stays under GitHub's limit: large results push the oldest out", () => {
    let body: string | null = null;
    for (let push = 1; push <= 15; push += 1) {
      // ~9,000 characters each: about seven fit.
      body = nextCommentBody(body, result(`run${push}`, "PASS", 100));
      expect(body.length).toBeLessThan(COMMENT_LIMIT);
    }
    const ids = parseEntries(body).map((entry) => entry.runId);
    expect(ids[0]).toBe("run15");
    expect(ids.length).toBeGreaterThan(3);
    expect(ids.length).toBeLessThan(15);
    expect(ids).toEqual(Array.from({ length: ids.length }, (_, index) => `run${15 - index}`));
  });

  it("keeps at most MAX_HISTORY earlier results however short", () => {
    let body: string | null = null;
    for (let push = 1; push <= MAX_HISTORY + 5; push += 1) body = nextCommentBody(body, result(`run${push}`));
    expect(parseEntries(body)).toHaveLength(MAX_HISTORY + 1);
  });

  it("cuts, at a line and saying so, a single result too large for a comment", () => {
    const body = nextCommentBody(null, result("huge", "FAIL", 2_000));
    expect(body.length).toBeLessThan(COMMENT_LIMIT);
    expect(body).toContain("cut to fit in one comment");
    expect(body.trimEnd().endsWith(MARKER)).toBe(true);
    expect(body.split("\n")[2]).toBe("### ❌ Benchtrack: **FAIL**");
  });

  it("reads a comment GitHub returns with CRLF line ends, and starts afresh from one whose entries were edited away", () => {
    const crlf = nextCommentBody(null, result("run1")).replace(/\n/g, "\r\n");
    expect(parseEntries(nextCommentBody(crlf, result("run2"))).map((entry) => entry.runId)).toEqual(["run2", "run1"]);
    const edited = `Someone rewrote this comment.\n\n${MARKER}\n`;
    expect(parseEntries(nextCommentBody(edited, result("run2"))).map((entry) => entry.runId)).toEqual(["run2"]);
  });

  it("refuses a run id that could break its delimiter", () => {
    expect(() => nextCommentBody(null, { ...result("x"), runId: "x -->\n<!-- benchtrack:entry run=y" })).toThrow(
      /Unexpected run id/,
    );
  });
});

describe("hasMarker", () => {
  it("finds the marker on a line of its own, not quoted or inside other text", () => {
    expect(hasMarker(`text\n${MARKER}\r\n`, MARKER)).toBe(true);
    expect(hasMarker(`> ${MARKER}`, MARKER)).toBe(false);
    expect(hasMarker(`see ${MARKER} here`, MARKER)).toBe(false);
    expect(hasMarker(`<!-- benchtrack:listings:k6:baseline2 -->`, MARKER)).toBe(false);
    expect(hasMarker(null, MARKER)).toBe(false);
  });
});

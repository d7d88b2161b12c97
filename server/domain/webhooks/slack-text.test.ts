import { describe, expect, it } from "vitest";
import { escapeSlack, parseMrkdwn, truncateText } from "./slack-text";

describe("escapeSlack", () => {
  it("escapes &, < and > (in that order, so an escape is never escaped twice), and nothing else", () => {
    expect(escapeSlack("a < b && c > d")).toBe("a &lt; b &amp;&amp; c &gt; d");
    expect(escapeSlack("&lt;")).toBe("&amp;lt;");
    expect(escapeSlack('"quoted" *bold* _it_ `code`')).toBe('"quoted" *bold* _it_ `code`');
  });
});

describe("truncateText", () => {
  it("keeps text that fits, and cuts the rest to the limit with an ellipsis", () => {
    expect(truncateText("short", 5)).toBe("short");
    expect(truncateText("abcdefgh", 5)).toBe("abcd…");
    expect(truncateText("abcdefgh", 5)).toHaveLength(5);
  });

  it("never leaves half an escape, half a link or half a surrogate pair", () => {
    expect(truncateText("ab &amp; cd", 6)).toBe("ab …");
    expect(truncateText("see <https://example.com/x|here> now", 20)).toBe("see …");
    expect(truncateText("ab😀cd", 4)).toBe("ab…");
  });
});

describe("parseMrkdwn", () => {
  it("reads bold, italic, code, links with and without labels, quotes and escapes", () => {
    expect(parseMrkdwn("*p99 +91%* (a &lt; b) <https://x.test/i/3|Open #3> `code` _it_\n&gt; a note\n<https://x.test/pr>")).toEqual([
      {
        quote: false,
        pieces: [
          { kind: "text", text: "p99 +91%", bold: true, italic: false },
          { kind: "text", text: " (a < b) ", bold: false, italic: false },
          { kind: "link", text: "Open #3", url: "https://x.test/i/3", bold: false },
          { kind: "text", text: " ", bold: false, italic: false },
          { kind: "code", text: "code" },
          { kind: "text", text: " ", bold: false, italic: false },
          { kind: "text", text: "it", bold: false, italic: true },
        ],
      },
      { quote: true, pieces: [{ kind: "text", text: "a note", bold: false, italic: false }] },
      { quote: false, pieces: [{ kind: "link", text: "https://x.test/pr", url: "https://x.test/pr", bold: false }] },
    ]);
  });

  it("reads a link inside bold as a bold link", () => {
    expect(parseMrkdwn("*<https://x.test|#4>* · *Open*")[0]!.pieces).toEqual([
      { kind: "link", text: "#4", url: "https://x.test", bold: true },
      { kind: "text", text: " · ", bold: false, italic: false },
      { kind: "text", text: "Open", bold: true, italic: false },
    ]);
  });
});

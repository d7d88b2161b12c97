import { describe, expect, it } from "vitest";
import { markdownCode, markdownText } from "./markdown";

describe("markdownText", () => {
  it("keeps a link, an image and raw HTML as text", () => {
    const text = markdownText("[x](javascript:alert(1)) ![i](https://evil.example/p.png) <img src=x onerror=alert(1)>");
    expect(text).toBe(
      "\\[x\\](javascript:alert(1)) !\\[i\\](https://evil.example/p.png) &lt;img src=x onerror=alert(1)&gt;",
    );
    expect(text).not.toMatch(/(?<!\\)\[/);
    expect(text).not.toContain("<");
  });

  it("mentions nobody, breaks no table cell and no line", () => {
    expect(markdownText("@everyone @org/team")).toBe("@\u200deveryone @\u200dorg/team");
    expect(markdownText("a|b")).toBe("a\\|b");
    expect(markdownText("one\r\ntwo\nthree")).toBe("one two three");
  });

  it("leaves emphasis, code and entities inert, and plain names as they are", () => {
    expect(markdownText("**bold** _it_ `code` ~~s~~ &amp; \\")).toBe("\\*\\*bold\\*\\* \\_it\\_ \\`code\\` \\~\\~s\\~\\~ &amp;amp; \\\\");
    expect(markdownText("GET /api/listings/:id")).toBe("GET /api/listings/:id");
  });
});

describe("markdownCode", () => {
  it("shows an expression literally, with no backtick to close the span early", () => {
    expect(markdownCode("p(95)<500")).toBe("`p(95)<500`");
    expect(markdownCode("a` [x](javascript:1) `b")).toBe("`a' [x](javascript:1) 'b`");
  });
});

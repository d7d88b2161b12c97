import { describe, expect, it } from "vitest";
import { safeNextPath } from "./auth";

// Where signing in leads (issue 36, item 3): the browser reads the Location header with the WHATWG URL
// parser, so every answer is read back the same way against the server's origin and must stay there.
const SITE = "https://bench.example";
const landsOn = (next: string) => new URL(safeNextPath(next), SITE);

describe("safeNextPath", () => {
  it.each([
    ["/", "/"],
    ["/projects/alpha", "/projects/alpha"],
    ["/projects/alpha/runs?branch=feature%2Fx&label=nightly", "/projects/alpha/runs?branch=feature%2Fx&label=nightly"],
    ["/projects/alpha/compare?base=r1,r2&head=r3#verdict", "/projects/alpha/compare?base=r1,r2&head=r3#verdict"],
    // An endpoint named by a path keeps its encoded slashes: they are inside one segment.
    ["/projects/alpha/endpoints/GET%20%2Fapi%2Fusers", "/projects/alpha/endpoints/GET%20%2Fapi%2Fusers"],
    // What the parser would send is what is answered: plain ASCII, percent-encoded.
    ["/projects/été?q=é", "/projects/%C3%A9t%C3%A9?q=%C3%A9"],
    ["/projects/alpha/../beta", "/projects/beta"],
  ])("keeps a path of this site: %j → %j", (next, expected) => {
    expect(safeNextPath(next)).toBe(expected);
  });

  it.each([
    // The reported one: the tab is dropped by the browser's parser, leaving //evil.example.
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r/evil.example",
    "/\r\n/evil.example",
    "\t//evil.example",
    "//evil.example",
    "//evil.example/x",
    "///evil.example",
    "/\\evil.example",
    "/\\/evil.example",
    "\\\\evil.example",
    "/x\\..\\..\\/evil.example",
    // Dot segments that leave an empty first segment: the parser's path would be //evil.example.
    "/.//evil.example",
    "/%2e//evil.example",
    "/a/../..//evil.example",
    // Encoded tricks: once decoded (by a proxy, a log viewer) they would be another host or a header break.
    "/%2F%2Fevil.example",
    "/%2f/evil.example",
    "/%5Cevil.example",
    "/%09/evil.example",
    "/%0D%0ASet-Cookie:%20x=1",
    "/x?%0d%0aLocation:%20https://evil.example",
    "/%E0%A4%A",
    // Another scheme or origin, or not a path at all.
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    "vbscript:msgbox(1)",
    "data:text/html,<script>alert(1)</script>",
    "https://evil.example",
    "http:evil.example",
    "https:/evil.example",
    "evil.example",
    " /x",
    " //evil.example",
    "\u0000/x",
    "/x\u0000",
    "/x\u007f",
    "/x\u001b[2J",
    "//user:pass@bench.example/x",
    "",
  ])("refuses %j (→ /)", (next) => {
    expect(safeNextPath(next)).toBe("/");
  });

  it("refuses nothing given", () => {
    expect(safeNextPath(null)).toBe("/");
    expect(safeNextPath(undefined)).toBe("/");
  });

  it.each([
    "/\t/evil.example",
    "/%09/evil.example",
    "/\\\\evil",
    "//evil",
    "/%2F%2Fevil",
    "\r\n",
    "/\r\n//evil",
    "javascript:alert(1)",
    "https://evil",
    " /x",
    "/／／evil",
    "／／evil",
    "/∕∕evil",
    "/⁄⁄evil",
    "/﹨evil",
    "/＼evil",
    "/。/evil",
    "/x/../../../evil",
    "/?next=//evil",
    "/#//evil",
    "/\u2028/evil",
    "/\u00a0/evil",
    "/\ufeff//evil",
  ])("whatever it answers stays on the site, read as a browser reads it: %j", (next) => {
    const url = landsOn(next);
    expect(url.origin).toBe(SITE);
    const answer = safeNextPath(next);
    expect(answer).toMatch(/^\/(?![/\\])/);
    // No byte a header could not carry, nothing a second reading would change.
    expect(answer).toMatch(/^[\x21-\x7e]+$/);
    expect(safeNextPath(answer)).toBe(answer);
  });

  it("never answers another origin for any single character after the slash, or any pair", () => {
    const characters = [
      ...Array.from({ length: 0x80 }, (_, code) => String.fromCharCode(code)),
      "／",
      "＼",
      "。",
      "\u2028",
      "\u00a0",
      "%",
    ];
    for (const first of characters) {
      for (const second of characters) {
        const next = `/${first}${second}evil.example`;
        const answer = safeNextPath(next);
        expect(new URL(answer, SITE).origin, JSON.stringify(next)).toBe(SITE);
        expect(answer.startsWith("//") || answer.startsWith("/\\"), JSON.stringify(next)).toBe(false);
      }
    }
  });
});

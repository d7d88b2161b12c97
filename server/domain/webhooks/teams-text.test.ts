import { describe, expect, it } from "vitest";
import { escapeTeams, parseTeamsMarkdown } from "./teams-text";

describe("escapeTeams and parseTeamsMarkdown", () => {
  it("round-trips text with Markdown characters: escaped, it reads back as the same text", () => {
    const name = "get_listing *v2* [beta] `x`";
    expect(escapeTeams(name)).toBe("get\\_listing \\*v2\\* \\[beta\\] \\`x\\`");
    expect(parseTeamsMarkdown(escapeTeams(name))).toEqual([{ kind: "text", text: name, bold: false, italic: false }]);
  });

  it("reads bold, italic and links, and a link inside bold", () => {
    expect(parseTeamsMarkdown("**[Incident #3](https://x.test/3)** · Open — **p99 +91%** _note_")).toEqual([
      { kind: "link", text: "Incident #3", url: "https://x.test/3", bold: true },
      { kind: "text", text: " · Open — ", bold: false, italic: false },
      { kind: "text", text: "p99 +91%", bold: true, italic: false },
      { kind: "text", text: " ", bold: false, italic: false },
      { kind: "text", text: "note", bold: false, italic: true },
    ]);
  });
});

import { describe, expect, it } from "vitest";
import { renderBadge } from "./badge";

describe("renderBadge", () => {
  it("draws the label on grey and the message on its colour, each box 7px a character plus 10", () => {
    const svg = renderBadge({ label: "gate", message: "pass", colour: "#2e7d32" });
    expect(svg).toContain('<svg xmlns="http://www.w3.org/2000/svg" width="76" height="20" role="img" aria-label="gate: pass">');
    expect(svg).toContain("<title>gate: pass</title>");
    expect(svg).toContain('<rect width="38" height="20" fill="#555"/><rect x="38" width="38" height="20" fill="#2e7d32"/>');
    expect(svg).toContain('<text x="19" y="14">gate</text><text x="57" y="14">pass</text>');
  });

  it("takes a title of its own, and escapes every text it is given", () => {
    const svg = renderBadge({ label: "<b>", message: 'a & "b"', colour: "#000", title: "it's <here>" });
    expect(svg).toContain('aria-label="it&#39;s &#60;here&#62;"');
    expect(svg).toContain("<title>it&#39;s &#60;here&#62;</title>");
    expect(svg).toContain(">&#60;b&#62;</text>");
    expect(svg).toContain(">a &#38; &#34;b&#34;</text>");
  });
});

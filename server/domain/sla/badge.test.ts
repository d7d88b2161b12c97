import { describe, expect, it } from "vitest";
import { parseBenchtrack } from "../parsers/benchtrack/benchtrack";
import { BADGE_COLOURS } from "../badge";
import { GRADE_COLOURS, renderGradeBadge } from "./badge";
import { gradeRun } from "./grade";

describe("renderGradeBadge", () => {
  const run = parseBenchtrack({ schema: "benchtrack/v1", endpoints: [{ name: "A", latency: { unit: "ms", p95: 10 } }] });

  it("shows the letter and score in the letter's colour", () => {
    const grade = gradeRun({ targets: [{ metric: "p95", op: "<=", threshold: 50, unit: "ms", scope: "endpoints", weight: 1 }] }, run);
    const svg = renderGradeBadge(grade);
    expect(svg).toContain(">A 100%</text>");
    expect(svg).toContain("#2e7d32");
    expect(svg).toContain('aria-label="SLA: A 100%"');
  });

  it("says 'no SLA' without a policy and escapes the label", () => {
    expect(renderGradeBadge(null)).toContain(">no SLA</text>");
    expect(renderGradeBadge(undefined, '<b>"x"')).toContain("&#60;b&#62;&#34;x&#34;");
  });
});

/** WCAG's contrast ratio of a colour with white. */
function contrastWithWhite(hex: string): number {
  const channels = [1, 3, 5].map((at) => Number.parseInt(hex.slice(at, at + 2), 16) / 255);
  const [r, g, b] = channels.map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)) as [number, number, number];
  return 1.05 / (0.2126 * r + 0.7152 * g + 0.0722 * b + 0.05);
}

describe("badge colours", () => {
  it("keep white 11px text readable: every grade's and message's colour has contrast ≥ 4.5 with white", () => {
    const colours = { ...GRADE_COLOURS, ...BADGE_COLOURS };
    const tooLight = Object.entries(colours).filter(([, hex]) => contrastWithWhite(hex) < 4.5);
    expect(tooLight).toEqual([]);
    // The check itself tells a light colour: the yellow C of before.
    expect(contrastWithWhite("#f9a825")).toBeLessThan(4.5);
  });
});

import { describe, expect, it } from "vitest";
import { parseBenchtrack } from "../parsers/benchtrack/benchtrack";
import { renderGradeBadge } from "./badge";
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

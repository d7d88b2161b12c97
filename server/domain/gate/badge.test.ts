import { describe, expect, it } from "vitest";
import { BADGE_COLOURS } from "../badge";
import type { GateBadgeInput } from "./badge";
import { describeGateBadge, renderGateBadge } from "./badge";

const on = (status: GateBadgeInput["status"], openIncidents = 0, label: string | null = null): GateBadgeInput => ({ branch: "main", label, status, openIncidents });

describe("describeGateBadge", () => {
  it("shows the stored outcome in its colour: green pass, red fail, amber inconclusive", () => {
    expect(describeGateBadge(on({ kind: "judged", outcome: "pass" }))).toEqual({
      label: "gate",
      message: "pass",
      colour: BADGE_COLOURS.green,
      title: "CI gate of the latest run on main: pass; no open incidents in the project",
    });
    expect(describeGateBadge(on({ kind: "judged", outcome: "fail" }))).toMatchObject({ message: "fail", colour: BADGE_COLOURS.red });
    expect(describeGateBadge(on({ kind: "judged", outcome: "inconclusive" }))).toMatchObject({ message: "inconclusive", colour: BADGE_COLOURS.amber });
  });

  it("counts open incidents after the outcome, one or many", () => {
    expect(describeGateBadge(on({ kind: "judged", outcome: "fail" }, 2))).toMatchObject({
      message: "fail · 2 incidents",
      colour: BADGE_COLOURS.red,
      title: "CI gate of the latest run on main: fail; 2 incidents open in the project",
    });
    expect(describeGateBadge(on({ kind: "judged", outcome: "pass" }, 1)).message).toBe("pass · 1 incident");
  });

  it("never passes what it does not know: 'unknown' for a run stored before outcomes were kept, 'no runs' without one, both grey", () => {
    expect(describeGateBadge(on({ kind: "not-kept" }))).toEqual({
      label: "gate",
      message: "unknown",
      colour: BADGE_COLOURS.grey,
      title: "CI gate of the latest run on main: unknown (stored before gate outcomes were kept); no open incidents in the project",
    });
    expect(describeGateBadge(on({ kind: "no-runs" }))).toMatchObject({ message: "no runs", colour: BADGE_COLOURS.grey, title: "CI gate on main: no runs yet; no open incidents in the project" });
    expect(describeGateBadge(on({ kind: "no-runs" }, 3)).message).toBe("no runs · 3 incidents");
  });

  it("names the label it was narrowed to in the title", () => {
    expect(describeGateBadge(on({ kind: "judged", outcome: "pass" }, 0, "nightly")).title).toBe(
      "CI gate of the latest run labelled nightly on main: pass; no open incidents in the project",
    );
    expect(describeGateBadge(on({ kind: "no-runs" }, 0, "nightly")).title).toBe("CI gate on main: no runs labelled nightly yet; no open incidents in the project");
  });
});

describe("renderGateBadge", () => {
  it("draws the words in an SVG with a title, text escaped", () => {
    const svg = renderGateBadge(on({ kind: "judged", outcome: "fail" }, 2, "<x>"));
    expect(svg).toContain(`fill="${BADGE_COLOURS.red}"`);
    expect(svg).toContain(">gate</text>");
    expect(svg).toContain(">fail · 2 incidents</text>");
    expect(svg).toContain("<title>CI gate of the latest run labelled &#60;x&#62; on main: fail; 2 incidents open in the project</title>");
  });
});

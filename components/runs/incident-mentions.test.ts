import { describe, expect, it } from "vitest";
import { splitIncidentMentions } from "./incident-mentions";

describe("splitIncidentMentions", () => {
  it("cuts a gate note at each mention of the incident, and nowhere else", () => {
    expect(splitIncidentMentions("open regression on this series: GET /x p95 +31.0% from the run of 2026-11-14 (r1), incident #3; runs are judged…", 3)).toEqual([
      { kind: "text", text: "open regression on this series: GET /x p95 +31.0% from the run of 2026-11-14 (r1), " },
      { kind: "mention", text: "incident #3" },
      { kind: "text", text: "; runs are judged…" },
    ]);
    expect(splitIncidentMentions("Incident #3 and incident #31", 3)).toEqual([
      { kind: "mention", text: "Incident #3" },
      { kind: "text", text: " and incident #31" },
    ]);
    expect(splitIncidentMentions("no incident here", 3)).toEqual([{ kind: "text", text: "no incident here" }]);
  });
});

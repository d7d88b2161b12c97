import { describe, expect, it } from "vitest";
import { groupIntoIncidents } from "./incidents";

const row = (id: string, firstRunId: string, endpoint: string | null, deltaPct: number) => ({
  id,
  firstRunId,
  deltaPct,
  endpoint: endpoint === null ? null : { name: endpoint },
});

describe("groupIntoIncidents", () => {
  it("makes one incident of the regressions opened at one run, largest change first, in the rows' order", () => {
    const incidents = groupIntoIncidents([
      row("a", "run9", "GetListing", 40),
      row("b", "run9", "SearchListings", 93.5),
      row("c", "run4", null, 12),
      row("d", "run9", "GetListing", -60),
      row("e", "run4", null, 30),
    ]);
    expect(incidents.map((incident) => incident.firstRunId)).toEqual(["run9", "run4"]);
    expect(incidents[0]!.rows.map((member) => member.id)).toEqual(["b", "d", "a"]);
    expect(incidents[0]!.endpoints).toEqual(["GetListing", "SearchListings"]);
    expect(incidents[1]!.rows.map((member) => member.id)).toEqual(["e", "c"]);
    expect(incidents[1]!.endpoints).toEqual([null]);
  });

  it("has nothing to group in an empty inbox", () => {
    expect(groupIntoIncidents([])).toEqual([]);
  });
});

import { describe, expect, it } from "vitest";
import { compareLoadProfiles, loadProfileDifference } from "./load-profile";

describe("loadProfileDifference", () => {
  it("names the load keys whose values differ, and ignores keys only one side sets", () => {
    expect(loadProfileDifference({ vus: 10, duration: "30s" }, { vus: 50, duration: "30s" })).toBe("vus 50 vs 10");
    expect(loadProfileDifference({ vus: 10 }, { vus: "10", host: "a" })).toBeNull();
    expect(loadProfileDifference({ concurrency: 10 }, { rps: 100 })).toBeNull();
    expect(loadProfileDifference({ rate: 100, concurrency: 8 }, { rate: 200, concurrency: 16 })).toBe("concurrency 16 vs 8, rate 200 vs 100");
  });
});

describe("compareLoadProfiles", () => {
  it("splits the keys both sides set into same and different, comparing each side's values as a set", () => {
    const base: Record<string, string | number>[] = [{ vus: 10, duration: "30s" }, { vus: 10, duration: "30s", rate: 5 }];
    const head = [{ vus: 50, duration: "30s" }, { vus: 20, duration: "30s" }];
    expect(compareLoadProfiles(base, head)).toEqual({
      same: [{ key: "duration", base: ["30s"], head: ["30s"] }],
      different: [{ key: "vus", base: ["10"], head: ["50", "20"] }],
    });
    expect(compareLoadProfiles([{ users: 10 }, { users: 20 }], [{ users: 20 }, { users: 10 }]).different).toEqual([]);
    expect(compareLoadProfiles([{ host: "a" }], [{ host: "b" }])).toEqual({ same: [], different: [] });
  });
});

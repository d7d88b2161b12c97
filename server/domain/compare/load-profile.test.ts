import { describe, expect, it } from "vitest";
import { compareLoadProfiles, describeLoadDifference, loadProfileDifference } from "./load-profile";

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

describe("describeLoadDifference", () => {
  it("says a run's load and the other loads of a sweep, by the keys that differ, in increasing order", () => {
    const sweep: Record<string, number>[] = [{ vus: 40, vus_max: 10 }, { vus: 20 }, { vus: 30 }, { vus: 20, rate: 5 }];
    expect(describeLoadDifference({ vus: 10, vus_max: 10, duration: "30s" }, sweep)).toEqual({ own: "vus 10", others: "vus 20, 30, 40", loads: 3 });
    expect(describeLoadDifference({ vus: 10, rate: 2 }, [{ vus: 10, rate: 4 }, { vus: 20, rate: 2 }])).toEqual({
      own: "vus 10, rate 2",
      others: "vus 20; rate 4",
      loads: 2,
    });
    expect(describeLoadDifference({ vus: 10 }, [{ vus: 10 }, { rate: 3 }])).toBeNull();
  });
});

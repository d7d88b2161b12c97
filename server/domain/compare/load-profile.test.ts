import { describe, expect, it } from "vitest";
import { loadProfileDifference } from "./load-profile";

describe("loadProfileDifference", () => {
  it("names the load keys whose values differ, and ignores keys only one side sets", () => {
    expect(loadProfileDifference({ vus: 10, duration: "30s" }, { vus: 50, duration: "30s" })).toBe("vus 50 vs 10");
    expect(loadProfileDifference({ vus: 10 }, { vus: "10", host: "a" })).toBeNull();
    expect(loadProfileDifference({ concurrency: 10 }, { rps: 100 })).toBeNull();
    expect(loadProfileDifference({ rate: 100, concurrency: 8 }, { rate: 200, concurrency: 16 })).toBe("concurrency 16 vs 8, rate 200 vs 100");
  });
});

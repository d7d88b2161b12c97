import { describe, expect, it } from "vitest";
import { chooseLoadKey, describeLoad, loadKeysOf, loadKeyTitle, loadLevelOf } from "./load-level";

describe("loadLevelOf", () => {
  it("reads positive numbers, and strings holding one", () => {
    expect(loadLevelOf({ vus: 50 }, "vus")).toBe(50);
    expect(loadLevelOf({ rate: "200" }, "rate")).toBe(200);
    expect(loadLevelOf({ rate: " 12.5 " }, "rate")).toBe(12.5);
  });

  it("has no level for a missing, zero, negative or non-numeric value", () => {
    expect(loadLevelOf({}, "vus")).toBeNull();
    expect(loadLevelOf({ vus: 0 }, "vus")).toBeNull();
    expect(loadLevelOf({ vus: -5 }, "vus")).toBeNull();
    expect(loadLevelOf({ vus: "many" }, "vus")).toBeNull();
    expect(loadLevelOf({ vus: true }, "vus")).toBeNull();
    expect(loadLevelOf({ rate: "1e3" }, "rate")).toBeNull();
  });
});

describe("chooseLoadKey", () => {
  // What the parsers state (k6: vus and vus_max; ghz: concurrency, connections and rps), with the level
  // the user varied set by config.<key> metadata.
  const k6 = [
    { vus: 10, vus_max: 10 },
    { vus: 20, vus_max: 10 },
    { vus: 40, vus_max: 10 },
  ];
  const ghz = [10, 20, 40].map((concurrency) => ({ concurrency, connections: 1, rps: 100, protocol: "grpc" }));

  it("takes the key that varies", () => {
    expect(chooseLoadKey(k6)).toEqual({ key: "vus", levels: 3 });
    expect(chooseLoadKey(ghz)).toEqual({ key: "concurrency", levels: 3 });
  });

  it("prefers a request rate over concurrency on a tie", () => {
    expect(
      chooseLoadKey([
        { rate: 100, vus: 10 },
        { rate: 200, vus: 20 },
      ]),
    ).toEqual({ key: "rate", levels: 2 });
  });

  it("takes the requested key when some run sets it, else chooses", () => {
    expect(chooseLoadKey(ghz, "rps")).toEqual({ key: "rps", levels: 1 });
    expect(chooseLoadKey(ghz, "users")).toEqual({ key: "concurrency", levels: 3 });
  });

  it("has none when no run states a load level", () => {
    expect(chooseLoadKey([{ protocol: "http" }, {}])).toBeNull();
    expect(chooseLoadKey([])).toBeNull();
  });

  it("lists the keys some run sets, in preference order", () => {
    expect(loadKeysOf(ghz)).toEqual([
      { key: "rps", levels: 1 },
      { key: "concurrency", levels: 3 },
      { key: "connections", levels: 1 },
    ]);
  });
});

describe("describeLoad", () => {
  it.each([
    ["vus", 50, "50 VUs"],
    ["users", 15, "15 users"],
    ["concurrency", 20, "concurrency 20"],
    ["rate", 1500, "rate 1,500"],
    ["connections", 64, "64 connections"],
    ["vus_max", 10, "10 max VUs"],
  ] as const)("%s %d reads %s", (key, level, text) => {
    expect(describeLoad(key, level)).toBe(text);
  });

  it("titles a key for an axis", () => {
    expect(loadKeyTitle("vus")).toBe("VUs");
    expect(loadKeyTitle("concurrency")).toBe("Concurrency");
    expect(loadKeyTitle("rps")).toBe("RPS");
  });
});

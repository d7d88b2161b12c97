import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { errorOf } from "./fixtures/input-error-of";
import { MAX_OBJECT_KEYS, findOversizedObject } from "./json-maps";
import { parseJsonText } from "./wire";

const GHZ = path.join(import.meta.dirname, "fixtures", "ghz", "baseline", "round1", "CheckStockAvailability.json");

function mapOf(keys: number): Record<string, number> {
  return Object.fromEntries(Array.from({ length: keys }, (_, index) => [`Unavailable #${index}`, 1]));
}

describe("findOversizedObject", () => {
  it("finds no oversized map in a real ghz report, which decodes as before", () => {
    const text = readFileSync(GHZ, "utf8");
    expect(findOversizedObject(text)).toBeNull();
    expect(parseJsonText(text)).toEqual(JSON.parse(text));
  });

  it("names the map of a real report given 10^6 error kinds, before decoding it", () => {
    const report = JSON.parse(readFileSync(GHZ, "utf8")) as Record<string, unknown>;
    const text = JSON.stringify({ ...report, errorDistribution: mapOf(1_000_000) });
    expect(findOversizedObject(text)).toEqual({ path: "errorDistribution", keys: MAX_OBJECT_KEYS + 1 });
    const error = errorOf(() => parseJsonText(text, "report.json"));
    expect(error.code).toBe("too_large");
    expect(error.details[0]?.path).toBe("errorDistribution");
  });

  it("gives nested paths, and is not fooled by braces, commas and escaped quotes inside strings", () => {
    const tricky = { 'a "quoted", {key}': "x,y,{z}", "b\\": "[\\\"]" };
    const text = JSON.stringify({ list: [1, { tricky, deep: { "odd key": mapOf(4) } }] });
    expect(findOversizedObject(text, 3)).toEqual({ path: 'list[1].deep["odd key"]', keys: 4 });
    expect(findOversizedObject(text, 4)).toBeNull();
    expect(findOversizedObject(JSON.stringify(mapOf(5)), 4)).toEqual({ path: "(document)", keys: 5 });
  });
});

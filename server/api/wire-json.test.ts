import superjson from "superjson";
import { describe, expect, it } from "vitest";
import { serializeForWire, wireTransformer } from "./wire-json";

/** What the browser reads: the serialized value through JSON text, then superjson.deserialize. */
const throughTheWire = (value: unknown) => wireTransformer.deserialize(JSON.parse(JSON.stringify(serializeForWire(value))));

const PLAIN = [
  null,
  "text",
  0,
  -12.5,
  true,
  [],
  {},
  { points: [{ runId: "c1", time: 1_732_998_675_660, p95Ms: 60.893, label: null, round: null, tags: ["a", "b"] }], gate: null },
];

const NOT_PLAIN = [
  new Date("2026-11-30T12:00:00Z"),
  { startedAt: new Date("2026-11-30T12:00:00Z"), id: "r1" },
  { missing: undefined, kept: 1 },
  [1, undefined, 3],
  { value: Number.NaN },
  { value: Number.POSITIVE_INFINITY },
  { value: -0 },
  new Map([["a", 1]]),
  { set: new Set([1, 2]) },
  { big: 12n },
  { deep: [[[{ at: new Date(0) }]]] },
];

describe("serializeForWire", () => {
  it("gives plain JSON back as superjson would, with no meta", () => {
    for (const value of PLAIN) {
      expect(serializeForWire(value)).toEqual(superjson.serialize(value));
      expect(serializeForWire(value).meta).toBeUndefined();
      expect(throughTheWire(value)).toEqual(value);
    }
  });

  it("hands any other value to superjson whole, so Dates, undefined, NaN, -0, Maps, Sets and bigints survive", () => {
    for (const value of NOT_PLAIN) {
      expect(serializeForWire(value)).toEqual(superjson.serialize(value));
      expect(serializeForWire(value).meta).toBeDefined();
      expect(throughTheWire(value)).toEqual(value);
    }
  });

  it("leaves to superjson an object without a prototype (React's payload refuses it), a cycle, and keys superjson refuses", () => {
    const bare = Object.assign(Object.create(null) as object, { plain: "without a prototype" });
    expect(serializeForWire(bare)).toEqual(superjson.serialize(bare));
    expect(serializeForWire(bare).json).not.toBe(bare);
    const cyclic: Record<string, unknown> = { name: "loop" };
    cyclic.self = cyclic;
    expect(serializeForWire(cyclic)).toEqual(superjson.serialize(cyclic));
    const refused = JSON.parse('{"__proto__": {"polluted": true}}') as object;
    expect(() => serializeForWire(refused)).toThrow();
    expect(() => serializeForWire({ constructor: 1 })).toThrow();
  });

  it("walks an object shared by many paths once: a value of shared sub-objects is checked in linear time", () => {
    let shared: unknown = { leaf: 1 };
    for (let level = 0; level < 60; level++) shared = { left: shared, right: shared };
    // 2^60 paths: a walk per path would never end.
    expect(serializeForWire(shared).meta).toBeUndefined();
  });

  it("leaves a value nested deeper than it looks to superjson", () => {
    let deep: unknown = { leaf: "plain" };
    for (let level = 0; level < 150; level++) deep = [deep];
    expect(serializeForWire(deep)).toEqual(superjson.serialize(deep));
    expect(throughTheWire(deep)).toEqual(deep);
  });

  it("returns the value itself as its json, not a copy (the point of skipping the walk)", () => {
    const value = { points: [{ p95Ms: 1 }] };
    expect(serializeForWire(value).json).toBe(value);
  });
});

import superjson from "superjson";
import type { SuperJSONResult } from "superjson";

/**
 * How tRPC's answers and the server render's query cache cross to the browser: superjson, so Dates,
 * Maps, undefined and non-finite numbers survive, without its walk over a value that is plain JSON
 * already. superjson's walk builds a path for every value it visits: for a trend page's 300 drawn runs
 * (some 5,000 values) it took 4 ms of each render; the check below takes a tenth of that. A value it
 * is not sure of goes to superjson whole, and the browser reads both with superjson.deserialize.
 */
export function serializeForWire(value: unknown): SuperJSONResult {
  return isPlainJson(value, 0) ? { json: value as SuperJSONResult["json"] } : superjson.serialize(value);
}

/** The transformer of tRPC's server and client. */
export const wireTransformer = {
  serialize: serializeForWire,
  deserialize: superjson.deserialize,
};

/** Deeper than this, superjson decides (it also knows what to do with a value met twice on one path). */
const MAX_PLAIN_DEPTH = 100;
/** Keys superjson refuses (it throws): left to it, so such a value fails the same way whatever else it holds. */
const REFUSED_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/**
 * Whether `value` is what JSON carries as it is: null, strings, booleans, finite numbers but -0, and
 * arrays and plain objects (Object's prototype; React's payload refuses a null one) of those, under keys
 * superjson accepts. superjson gives such a value back as its `json`, with no `meta` (but for an object
 * met twice, which it also marks so the browser shares one copy: here two copies). An object already
 * found plain is not walked again (a value sharing sub-objects stays linear); one met again on its own
 * path (a cycle) is left to superjson.
 */
function isPlainJson(value: unknown, depth: number, plain = new Set<object>(), onPath = new Set<object>()): boolean {
  if (value === null) return true;
  switch (typeof value) {
    case "string":
    case "boolean":
      return true;
    case "number":
      return Number.isFinite(value) && !Object.is(value, -0);
    case "object": {
      if (plain.has(value)) return true;
      if (depth >= MAX_PLAIN_DEPTH || onPath.has(value)) return false;
      onPath.add(value);
      const isPlain = Array.isArray(value) ? isPlainArray(value, depth, plain, onPath) : isPlainObject(value, depth, plain, onPath);
      onPath.delete(value);
      if (isPlain) plain.add(value);
      return isPlain;
    }
    default:
      return false;
  }
}

/** Every index is read, holes included (a hole is undefined: superjson's). */
function isPlainArray(value: readonly unknown[], depth: number, plain: Set<object>, onPath: Set<object>): boolean {
  for (let index = 0; index < value.length; index++) {
    if (!isPlainJson(value[index], depth + 1, plain, onPath)) return false;
  }
  return true;
}

function isPlainObject(value: object, depth: number, plain: Set<object>, onPath: Set<object>): boolean {
  if (Object.getPrototypeOf(value) !== Object.prototype) return false;
  for (const key of Object.keys(value)) {
    if (REFUSED_KEYS.has(key) || !isPlainJson((value as Record<string, unknown>)[key], depth + 1, plain, onPath)) return false;
  }
  return true;
}

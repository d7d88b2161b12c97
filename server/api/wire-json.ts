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
  deserialize: (payload: SuperJSONResult): unknown => superjson.deserialize(payload),
};

/** Deeper than this, superjson decides (it also knows what to do with a value met twice on one path). */
const MAX_PLAIN_DEPTH = 100;

/**
 * Whether `value` is what JSON carries as it is: null, strings, booleans, finite numbers but -0, and
 * arrays and plain objects of those. superjson gives such a value back as its `json`, with no `meta`
 * (but for an object met twice, which it also marks so the browser shares one copy: here two copies).
 */
function isPlainJson(value: unknown, depth: number): boolean {
  if (value === null) return true;
  switch (typeof value) {
    case "string":
    case "boolean":
      return true;
    case "number":
      return Number.isFinite(value) && !Object.is(value, -0);
    case "object": {
      if (depth >= MAX_PLAIN_DEPTH) return false;
      if (Array.isArray(value)) {
        for (let index = 0; index < value.length; index++) {
          if (!isPlainJson(value[index], depth + 1)) return false;
        }
        return true;
      }
      const prototype: unknown = Object.getPrototypeOf(value);
      if (prototype !== Object.prototype && prototype !== null) return false;
      for (const key of Object.keys(value)) {
        if (!isPlainJson((value as Record<string, unknown>)[key], depth + 1)) return false;
      }
      return true;
    }
    default:
      return false;
  }
}

/**
 * Reading a tool's wire document: JSON text → value, and value → typed data through the format's Zod
 * schema. Both failure modes become `InputError("malformed")` with a path the user can act on
 * (`line 3, column 14` for syntax, `metrics.http_reqs.count` for shape).
 */
import type { z } from "zod";
import { InputError, type InputErrorDetail } from "../input-error";
import { MAX_OBJECT_KEYS, findOversizedObject } from "./json-maps";

/** At most this many schema issues are listed; the first few are what a user fixes first anyway. */
const MAX_REPORTED_ISSUES = 20;

/**
 * Parses JSON text, turning a syntax error into a malformed-input error that names line and column,
 * and refusing (413) an object of more than MAX_OBJECT_KEYS keys before it is built.
 */
export function parseJsonText(text: string, source: string | null = null): unknown {
  // Before JSON.parse builds it: a map of 10^6 keys is refused in one pass, not after 9 s and 800 MB.
  const oversized = findOversizedObject(text);
  if (oversized) {
    throw new InputError("too_large", `Too many keys in ${oversized.path}${source ? ` of ${source}` : ""}: more than ${MAX_OBJECT_KEYS.toLocaleString("en-US")}`, [
      { path: oversized.path, message: `more than ${MAX_OBJECT_KEYS} keys; the limit is ${MAX_OBJECT_KEYS}` },
    ]);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const offset = syntaxErrorOffset(text, error);
    const { line, column } = lineAndColumnOf(text, offset);
    const where = `line ${line}, column ${column}`;
    const reason = error instanceof Error ? error.message : "invalid JSON";
    throw new InputError("malformed", `Invalid JSON${source ? ` in ${source}` : ""} at ${where}: ${reason}`, [
      { path: source ? `${source}: ${where}` : where, message: reason },
    ]);
  }
}

/** Validates `value` against a wire schema, or throws malformed input listing each issue's JSON path. */
export function parseWire<Schema extends z.ZodType>(
  schema: Schema,
  value: unknown,
  what: string,
  pathPrefix = "",
): z.output<Schema> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const details: InputErrorDetail[] = result.error.issues.slice(0, MAX_REPORTED_ISSUES).map((issue) => ({
    path: joinPath(pathPrefix, issue.path),
    message: issue.message,
  }));
  const first = details[0];
  const summary = first ? ` (${first.path || "document"}: ${first.message})` : "";
  throw new InputError("malformed", `Not a valid ${what}${summary}`, details);
}

/** `["endpoints", 3, "latency"]` → `endpoints[3].latency`, prefixed with `pathPrefix` when given. */
function joinPath(pathPrefix: string, path: readonly PropertyKey[]): string {
  let joined = pathPrefix;
  for (const key of path) {
    if (typeof key === "number") joined += `[${key}]`;
    // A prefix ending in a separator ("line 3: ", "query.") takes the key as is.
    else joined += joined === "" || /[\s.]$/.test(joined) ? String(key) : `.${String(key)}`;
  }
  return joined;
}

function lineAndColumnOf(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: end - lineStart + 1 };
}

/** V8 names the offset in some messages ("at position 12"); for the rest, find it by scanning. */
function syntaxErrorOffset(text: string, error: unknown): number {
  const message = error instanceof Error ? error.message : "";
  const position = /at position (\d+)/.exec(message);
  if (position?.[1] !== undefined) return Number(position[1]);
  return scanForSyntaxError(text);
}

/**
 * A minimal JSON scanner that returns the offset of the first syntax error (or the text length when the
 * document is cut short). It only runs after JSON.parse has failed, so speed does not matter.
 */
function scanForSyntaxError(text: string): number {
  let i = 0;
  const skipSpace = (): void => {
    while (i < text.length && " \t\n\r".includes(text.charAt(i))) i++;
  };
  const fail = (): never => {
    throw new JsonScanError(i);
  };
  const expectLiteral = (literal: string): void => {
    for (const char of literal) {
      if (text.charAt(i) !== char) fail();
      i++;
    }
  };
  const scanString = (): void => {
    i++; // opening quote
    while (i < text.length) {
      const char = text.charAt(i);
      if (char === '"') {
        i++;
        return;
      }
      if (char === "\\") i++;
      else if (char.charCodeAt(0) < 0x20) fail();
      i++;
    }
    fail();
  };
  const scanValue = (): void => {
    skipSpace();
    const char = text.charAt(i);
    if (char === "{") {
      i++;
      skipSpace();
      if (text.charAt(i) === "}") {
        i++;
        return;
      }
      for (;;) {
        skipSpace();
        if (text.charAt(i) !== '"') fail();
        scanString();
        skipSpace();
        if (text.charAt(i) !== ":") fail();
        i++;
        scanValue();
        skipSpace();
        if (text.charAt(i) === ",") i++;
        else if (text.charAt(i) === "}") {
          i++;
          return;
        } else fail();
      }
    } else if (char === "[") {
      i++;
      skipSpace();
      if (text.charAt(i) === "]") {
        i++;
        return;
      }
      for (;;) {
        scanValue();
        skipSpace();
        if (text.charAt(i) === ",") i++;
        else if (text.charAt(i) === "]") {
          i++;
          return;
        } else fail();
      }
    } else if (char === '"') scanString();
    else if (char === "t") expectLiteral("true");
    else if (char === "f") expectLiteral("false");
    else if (char === "n") expectLiteral("null");
    else {
      const number = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
      if (!number) fail();
      i += number?.[0].length ?? 0;
    }
  };
  try {
    scanValue();
    skipSpace();
    return i; // trailing content, or a failure the scanner did not model
  } catch (error) {
    if (error instanceof JsonScanError) return error.offset;
    throw error;
  }
}

class JsonScanError extends Error {
  constructor(readonly offset: number) {
    super(`JSON syntax error at offset ${offset}`);
  }
}

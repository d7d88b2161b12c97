/**
 * Map sizes checked before a document is decoded. JSON.parse builds every key of an object before any
 * schema sees it: a 24 MB ghz report whose `errorDistribution` holds 10^6 keys took 9 s and 800 MB to
 * be refused afterwards. Real maps (k6's metrics, status codes, error kinds) hold tens to hundreds of
 * keys; MAX_OBJECT_KEYS is far beyond them. Arrays are not limited here: ghz's `details` lists every
 * call, and the document size limit bounds them.
 */
export const MAX_OBJECT_KEYS = 10_000;

export interface OversizedObject {
  /** JSON path of the object ("errorDistribution", "metrics.x.values", "(document)" for the root). */
  path: string;
  keys: number;
}

type Frame = { kind: "object"; keys: number; expectingKey: boolean; key: string } | { kind: "array"; index: number };

/**
 * The first object with more than `maxKeys` keys, found in one linear pass over the text without
 * decoding it (strings are skipped with indexOf; only structural characters are looked at), or null.
 * Text that is not valid JSON gives null or a best-effort answer: JSON.parse reports its syntax.
 */
export function findOversizedObject(text: string, maxKeys = MAX_OBJECT_KEYS): OversizedObject | null {
  const stack: Frame[] = [];
  const length = text.length;
  for (let index = 0; index < length; index++) {
    const code = text.charCodeAt(index);
    if (code === 0x22 /* " */) {
      const end = closingQuote(text, index + 1);
      const top = stack.at(-1);
      if (top?.kind === "object" && top.expectingKey) {
        top.expectingKey = false;
        top.keys++;
        if (top.keys > maxKeys) return { path: pathOf(stack.slice(0, -1)), keys: top.keys };
        top.key = text.slice(index, end + 1);
      }
      index = end;
    } else if (code === 0x7b /* { */) {
      stack.push({ kind: "object", keys: 0, expectingKey: true, key: "" });
    } else if (code === 0x5b /* [ */) {
      stack.push({ kind: "array", index: 0 });
    } else if (code === 0x7d /* } */ || code === 0x5d /* ] */) {
      stack.pop();
    } else if (code === 0x2c /* , */) {
      const top = stack.at(-1);
      if (top?.kind === "object") top.expectingKey = true;
      else if (top?.kind === "array") top.index++;
    }
  }
  return null;
}

/** The index of the quote that closes a string whose content starts at `from` (or the text's end). */
function closingQuote(text: string, from: number): number {
  for (let quote = text.indexOf('"', from); quote !== -1; quote = text.indexOf('"', quote + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 0x5c /* \ */) backslashes++;
    if (backslashes % 2 === 0) return quote;
  }
  return text.length;
}

function pathOf(frames: readonly Frame[]): string {
  let path = "";
  for (const frame of frames) {
    if (frame.kind === "array") {
      path += `[${frame.index}]`;
      continue;
    }
    let key: string;
    try {
      key = JSON.parse(frame.key) as string;
    } catch {
      key = frame.key;
    }
    path += /^[A-Za-z_$][\w$]*$/.test(key) ? `${path === "" ? "" : "."}${key}` : `[${JSON.stringify(key)}]`;
  }
  return path === "" ? "(document)" : path;
}

/** What the formats' markers (each tool's descriptor) and detect.ts look at: a JSON object, a first line, a CSV header. */

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The longest first line that may start k6 NDJSON: the upload reader decides within this many bytes too. */
export const MAX_NDJSON_FIRST_LINE = 64 * 1024;

/** A text's first line (without its line break). */
export function firstLineOf(start: string): string {
  const newline = start.indexOf("\n");
  return (newline === -1 ? start.slice(0, 4096) : start.slice(0, newline)).replace(/\r$/, "");
}

/** The columns of a CSV header line (plain names: the tools' headers hold no quotes). */
export function headerColumns(line: string): string[] {
  return line.split(/[,\t;|]/).map((column) => column.trim().replace(/^"|"$/g, ""));
}

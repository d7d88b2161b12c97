/** Reading a text line by line without splitting it into an array first (a bench file can be tens of MB). */

/** Calls `each` with every line of a text (without line breaks) and its 1-based number, without splitting it. */
export function forEachLine(text: string, each: (line: string, lineNumber: number) => void): void {
  let start = text.startsWith("\uFEFF") ? 1 : 0;
  let lineNumber = 1;
  while (start <= text.length) {
    const newline = text.indexOf("\n", start);
    const end = newline === -1 ? text.length : newline;
    const line = text.slice(start, end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end);
    if (newline !== -1 || line !== "") each(line, lineNumber);
    if (newline === -1) break;
    start = newline + 1;
    lineNumber += 1;
  }
}

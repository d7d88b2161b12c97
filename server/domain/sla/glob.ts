/**
 * Endpoint-name globs for SLA scopes: "*" matches any run of characters (including none), "?" exactly
 * one; everything else matches itself, case-sensitively. Matched by hand rather than compiled to a
 * RegExp, so a pattern like "GET /a(b|c)+" is literal text and cannot inject regex syntax or backtrack.
 */
export function matchesGlob(pattern: string, name: string): boolean {
  const patternChars = Array.from(pattern);
  const nameChars = Array.from(name);
  let p = 0;
  let n = 0;
  // Where the last "*" was and which name position it is currently assumed to stretch to.
  let starAt = -1;
  let starMatchEnd = 0;

  // Greedy two-pointer match with backtracking to the last star only: O(pattern × name) worst case.
  while (n < nameChars.length) {
    const patternChar = patternChars[p];
    if (patternChar === "*") {
      starAt = p;
      starMatchEnd = n;
      p += 1;
    } else if (patternChar !== undefined && (patternChar === "?" || patternChar === nameChars[n])) {
      p += 1;
      n += 1;
    } else if (starAt !== -1) {
      p = starAt + 1;
      starMatchEnd += 1;
      n = starMatchEnd;
    } else {
      return false;
    }
  }
  while (patternChars[p] === "*") p += 1;
  return p === patternChars.length;
}

/** Ticks for a log axis from `minMs` to `maxMs`: 1, 2, 5 × 10^n inside the range (just 1 × 10^n when that makes too many). */
export function logTicks(minMs: number, maxMs: number, maxTicks = 9): number[] {
  if (!(minMs > 0) || !(maxMs >= minMs) || !Number.isFinite(maxMs)) return [];
  const ticksWith = (factors: readonly number[]) => {
    const ticks: number[] = [];
    for (let exponent = Math.floor(Math.log10(minMs)); exponent <= Math.ceil(Math.log10(maxMs)); exponent++) {
      for (const factor of factors) {
        const tick = Number((factor * 10 ** exponent).toPrecision(12));
        if (tick >= minMs && tick <= maxMs) ticks.push(tick);
      }
    }
    return ticks;
  };
  const fine = ticksWith([1, 2, 5]);
  return fine.length <= maxTicks ? fine : ticksWith([1]);
}

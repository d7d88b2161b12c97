/** Number formatting for the `reason` sentences statistics return (UI formatting lives in components/lib). */

/** "+76.1%", "−3.0%" (a true minus sign, as in the rest of the UI). */
export function formatSignedPct(pct: number): string {
  const rounded = pct.toFixed(1);
  if (pct > 0) return `+${rounded}%`;
  if (pct < 0) return `−${rounded.slice(1)}%`;
  return `${rounded}%`;
}

/** "p < 0.001", "p = 0.021". */
export function formatPValue(pValue: number): string {
  if (pValue < 0.001) return "p < 0.001";
  return `p = ${Number(pValue.toPrecision(2))}`;
}

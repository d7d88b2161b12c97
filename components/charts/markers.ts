/**
 * Change points, pins and annotations on a trend chart. Their texts, drawn beside each line, ran into
 * one another wherever markers sat close (one step opens a marker per metric at the same run). Each
 * position gets one number on the chart instead, and the texts are listed under it: markers at the same
 * x share one number, one line, and their texts, each said once.
 */
export interface ChartMarker {
  x: number;
  text: string;
  color: string;
  /** Where its text links (an incident's page). */
  href?: string;
}

export interface NumberedMarker {
  /** 1, 2, 3… from left to right. */
  number: number;
  x: number;
  /** The first marker's colour at this x. */
  color: string;
  /** Each text once, with its link if it has one. */
  items: { text: string; href: string | null }[];
}

export function numberMarkers(markers: readonly ChartMarker[]): NumberedMarker[] {
  const byX = new Map<number, { color: string; items: NumberedMarker["items"] }>();
  for (const marker of markers) {
    const entry = byX.get(marker.x) ?? { color: marker.color, items: [] };
    if (!entry.items.some((item) => item.text === marker.text)) entry.items.push({ text: marker.text, href: marker.href ?? null });
    byX.set(marker.x, entry);
  }
  return [...byX]
    .sort(([a], [b]) => a - b)
    .map(([x, entry], index) => ({ number: index + 1, x, color: entry.color, items: entry.items }));
}

/**
 * A README badge in the flat style of shields.io: a grey label on the left ("SLA", "gate"), a message on
 * the right in its colour ("A 100%", "fail · 2 incidents"). Text is escaped; widths are estimated from
 * character counts (Verdana 11px ≈ 7px a character). The `<title>` and `aria-label` say the same for
 * screen readers and as a tooltip. Which words and colours a badge shows is its kind's choice
 * (sla/badge.ts, gate/badge.ts); this draws them.
 */

/**
 * Colours for a message, each dark enough for white 11px text (contrast with white ≥ 4.5:1, WCAG AA). The
 * SLA grade's letters keep their own scale (sla/badge.ts).
 */
export const BADGE_COLOURS = {
  green: "#2e7d32",
  red: "#c62828",
  amber: "#9a6700",
  grey: "#757575",
} as const;

export interface Badge {
  label: string;
  message: string;
  /** The message's background, as a CSS colour ("#2e7d32"). */
  colour: string;
  /** What a screen reader says and the tooltip shows; "label: message" when absent. */
  title?: string;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

function textWidth(text: string): number {
  return Math.round(text.length * 7 + 10);
}

export function renderBadge({ label, message, colour, title = `${label}: ${message}` }: Badge): string {
  const labelWidth = textWidth(label);
  const messageWidth = textWidth(message);
  const width = labelWidth + messageWidth;
  const escapedTitle = escapeXml(title);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="20" role="img" aria-label="${escapedTitle}">
<title>${escapedTitle}</title>
<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>
<clipPath id="r"><rect width="${width}" height="20" rx="3" fill="#fff"/></clipPath>
<g clip-path="url(#r)"><rect width="${labelWidth}" height="20" fill="#555"/><rect x="${labelWidth}" width="${messageWidth}" height="20" fill="${escapeXml(colour)}"/><rect width="${width}" height="20" fill="url(#s)"/></g>
<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">
<text x="${labelWidth / 2}" y="14">${escapeXml(label)}</text><text x="${labelWidth + messageWidth / 2}" y="14">${escapeXml(message)}</text>
</g></svg>
`;
}

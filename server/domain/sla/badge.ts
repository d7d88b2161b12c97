import type { SlaGrade } from "./grade";

/**
 * A README badge for a project's SLA grade, in the flat style of shields.io: "SLA | A 100%".
 * Text is escaped; widths are estimated from character counts (Verdana 11px ≈ 7px a character).
 */
const COLOURS: Record<string, string> = { A: "#2e7d32", B: "#689f38", C: "#f9a825", D: "#ef6c00", F: "#c62828" };
const GREY = "#757575";

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

function textWidth(text: string): number {
  return Math.round(text.length * 7 + 10);
}

export function renderGradeBadge(grade: SlaGrade | null | undefined, label = "SLA"): string {
  const message = grade === undefined ? "no runs" : grade === null ? "no SLA" : grade.letter === null ? "no data" : `${grade.letter} ${grade.score}%`;
  const colour = grade?.letter ? (COLOURS[grade.letter] ?? GREY) : GREY;
  const labelWidth = textWidth(label);
  const messageWidth = textWidth(message);
  const width = labelWidth + messageWidth;
  const title = escapeXml(`${label}: ${message}`);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="20" role="img" aria-label="${title}">
<title>${title}</title>
<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>
<clipPath id="r"><rect width="${width}" height="20" rx="3" fill="#fff"/></clipPath>
<g clip-path="url(#r)"><rect width="${labelWidth}" height="20" fill="#555"/><rect x="${labelWidth}" width="${messageWidth}" height="20" fill="${colour}"/><rect width="${width}" height="20" fill="url(#s)"/></g>
<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">
<text x="${labelWidth / 2}" y="14">${escapeXml(label)}</text><text x="${labelWidth + messageWidth / 2}" y="14">${escapeXml(message)}</text>
</g></svg>
`;
}

/**
 * Splits a text at its mentions of one incident ("incident #3", any case), so a page can link them:
 * [{text: "…, "}, {mention: "incident #3"}, {text: "; runs are…"}]. "incident #31" is not "incident #3".
 */
export type TextPart = { kind: "text"; text: string } | { kind: "mention"; text: string };

export function splitIncidentMentions(text: string, number: number): TextPart[] {
  const pattern = new RegExp(`incident #${number}(?!\\d)`, "gi");
  const parts: TextPart[] = [];
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > last) parts.push({ kind: "text", text: text.slice(last, match.index) });
    parts.push({ kind: "mention", text: match[0] });
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push({ kind: "text", text: text.slice(last) });
  return parts;
}

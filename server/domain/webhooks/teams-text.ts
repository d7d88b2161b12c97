/**
 * Text in the Markdown subset Teams renders in an Adaptive Card's TextBlocks and facts
 * (https://learn.microsoft.com/adaptive-cards/authoring-cards/text-features): escaping what Benchtrack
 * did not write, and reading it back into pieces for the Settings page's preview of a delivered card
 * (the subset teams-message.ts writes: **bold**, _italic_, [links](url)).
 */

/** Backslash-escapes the Markdown Teams would interpret in a name or a note (emphasis, links, code). */
export function escapeTeams(text: string): string {
  return text.replace(/([\\*_[\]`~])/g, "\\$1");
}

export type TeamsPiece = { kind: "text"; text: string; bold: boolean; italic: boolean } | { kind: "link"; text: string; url: string; bold: boolean };

const TOKEN = /(\\[\\*_[\]`~])|(\*\*(?:\\.|[^*\\])+\*\*)|(_(?:\\.|[^_\\])+_)|(\[(?:\\.|[^\]\\])+\]\([^()\s]+\))/g;

const unescape = (text: string) => text.replace(/\\([\\*_[\]`~])/g, "$1");

/** Reads the Markdown subset into pieces (the preview renders them as text; nothing becomes HTML). */
export function parseTeamsMarkdown(text: string, bold = false, italic = false): TeamsPiece[] {
  const pieces: TeamsPiece[] = [];
  let at = 0;
  let pending = "";
  const flush = () => {
    if (pending !== "") pieces.push({ kind: "text", text: pending, bold, italic });
    pending = "";
  };
  for (const match of text.matchAll(TOKEN)) {
    const [token] = match;
    pending += text.slice(at, match.index);
    at = match.index + token.length;
    if (match[1]) {
      pending += token.slice(1);
      continue;
    }
    flush();
    if (match[2]) pieces.push(...parseTeamsMarkdown(token.slice(2, -2), true, italic));
    else if (match[3]) pieces.push(...parseTeamsMarkdown(token.slice(1, -1), bold, true));
    else {
      const close = token.lastIndexOf("](");
      pieces.push({ kind: "link", text: unescape(token.slice(1, close)), url: token.slice(close + 2, -1), bold });
    }
  }
  pending += text.slice(at);
  flush();
  return pieces;
}

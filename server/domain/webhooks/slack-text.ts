/**
 * Text in Slack's mrkdwn (https://docs.slack.dev/messaging/formatting-message-text): escaping what
 * Benchtrack puts in it, cutting it to a block's limit, and reading it back into pieces for the Settings
 * page's preview of a delivered message (the subset slack-message.ts writes: *bold*, _italic_, `code`,
 * <url|links>, > quotes and line breaks).
 */

/** Slack's mrkdwn needs &, < and > escaped in text; everything else is taken literally. */
export function escapeSlack(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** Undoes escapeSlack (for showing the text as Slack would). */
export function unescapeSlack(text: string): string {
  return text.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

/**
 * The text cut to at most `max` characters (UTF-16 code units, as Slack and Teams count), ending in "…"
 * when cut; never in the middle of a surrogate pair or of an escape (&amp;) or a <link|…>.
 */
export function truncateText(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = text.slice(0, Math.max(0, max - 1));
  // An escape or a link cut in two would show as junk: drop the unfinished one.
  const amp = cut.lastIndexOf("&");
  if (amp !== -1 && !cut.slice(amp).includes(";")) cut = cut.slice(0, amp);
  const open = cut.lastIndexOf("<");
  if (open !== -1 && !cut.slice(open).includes(">")) cut = cut.slice(0, open);
  const last = cut.charCodeAt(cut.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut = cut.slice(0, -1);
  return `${cut}…`;
}

/** A piece of mrkdwn as Slack shows it. */
export type MrkdwnPiece =
  | { kind: "text"; text: string; bold: boolean; italic: boolean }
  | { kind: "code"; text: string }
  | { kind: "link"; text: string; url: string; bold: boolean }
  | { kind: "break" };

/** A line of mrkdwn: a quote ("> …") or plain, made of pieces. */
export interface MrkdwnLine {
  quote: boolean;
  pieces: MrkdwnPiece[];
}

const TOKEN = /(<[^<>\n]+>)|(`[^`\n]+`)|(\*[^*\n]+\*)|(_[^_\n]+_)/g;

function parseInline(text: string, bold = false, italic = false): MrkdwnPiece[] {
  const pieces: MrkdwnPiece[] = [];
  let at = 0;
  const plain = (value: string) => {
    if (value !== "") pieces.push({ kind: "text", text: unescapeSlack(value), bold, italic });
  };
  for (const match of text.matchAll(TOKEN)) {
    const [token] = match;
    plain(text.slice(at, match.index));
    at = match.index + token.length;
    if (match[1]) {
      const inner = token.slice(1, -1);
      const bar = inner.indexOf("|");
      const url = bar === -1 ? inner : inner.slice(0, bar);
      const label = bar === -1 ? inner : inner.slice(bar + 1);
      pieces.push({ kind: "link", url: unescapeSlack(url), text: unescapeSlack(label), bold });
    } else if (match[2]) {
      pieces.push({ kind: "code", text: unescapeSlack(token.slice(1, -1)) });
    } else if (match[3]) {
      pieces.push(...parseInline(token.slice(1, -1), true, italic));
    } else {
      pieces.push(...parseInline(token.slice(1, -1), bold, true));
    }
  }
  plain(text.slice(at));
  return pieces;
}

/** Reads mrkdwn into lines of pieces (the preview renders them; nothing is interpreted as HTML). */
export function parseMrkdwn(text: string): MrkdwnLine[] {
  return text.split("\n").map((line) => {
    const quote = line.startsWith("&gt; ") || line.startsWith("> ");
    const body = quote ? line.replace(/^(&gt;|>) /, "") : line;
    return { quote, pieces: parseInline(body) };
  });
}

/**
 * User text (labels, branches, endpoint names, tools, threshold expressions…) inside the Markdown
 * answers that CI posts as pull-request comments. Whatever an upload says, it stays text there: no
 * link (`[x](javascript:…)`), no image, no raw HTML, no heading, no table cell break, and no mention
 * that notifies people (`@everyone`, `@org/team`).
 *
 * - the punctuation that opens or closes inline markup mid-line (emphasis, code, links and images,
 *   strikethrough, table cells) is backslash-escaped: a backslash before ASCII punctuation is a
 *   literal (https://spec.commonmark.org/0.31.2/#backslash-escapes). User text never starts a line
 *   here, so block markers (`#`, `-`, `1.`) need nothing; with `[` escaped, `(` cannot make a link;
 * - `<`, `>` and `&` become entities, so neither an HTML tag nor an entity of the user's survives;
 * - `@` is followed by a zero-width joiner, which GitHub and GitLab do not read as a mention;
 * - line breaks become spaces: a comment line stays one line (and a table row one row).
 */
const MARKUP = /[\\`*_[\]|~]/g;

export function markdownText(text: string): string {
  return text
    .replace(/[\r\n]+/g, " ")
    .replace(MARKUP, (character) => `\\${character}`)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/@/g, "@\u200d");
}

/**
 * User text as inline code (threshold expressions such as `p(95)<500` read best that way): a code span
 * shows its content literally, so only backticks (which would close it) and line breaks are changed.
 */
export function markdownCode(text: string): string {
  return `\`${text.replace(/[\r\n]+/g, " ").replace(/`/g, "'")}\``;
}

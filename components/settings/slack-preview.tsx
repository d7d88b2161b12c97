import type { ReactNode } from "react";
import { cn } from "@/components/lib/cn";
import { parseMrkdwn, type MrkdwnPiece } from "@/server/domain/webhooks/slack-text";
import type { SlackMessage } from "@/server/schemas/webhooks";

/**
 * A Slack-like rendering of the Block Kit subset Benchtrack sends (server/domain/webhooks/slack-message.ts):
 * the app's name line, a header, mrkdwn sections, two-column fields, dividers, context lines and link
 * buttons. Text is rendered as text (never as HTML); links open in a new tab. Close to what Slack shows,
 * in our own colours, readable in light and dark.
 */

const LINK = "text-sky-700 hover:underline dark:text-sky-400";

function Piece({ piece }: { piece: MrkdwnPiece }) {
  if (piece.kind === "break") return <br />;
  if (piece.kind === "code") {
    return <code className="rounded border border-border bg-surface-muted px-1 py-px font-mono text-[0.85em] text-rose-700 dark:text-rose-300">{piece.text}</code>;
  }
  if (piece.kind === "link") {
    return (
      <a href={piece.url} target="_blank" rel="noreferrer noopener" className={cn(LINK, piece.bold && "font-bold")}>
        {piece.text}
      </a>
    );
  }
  return <span className={cn(piece.bold && "font-bold", piece.italic && "italic")}>{piece.text}</span>;
}

/** mrkdwn as Slack shows it: lines, quotes with a bar, bold, italic, code and links. */
export function Mrkdwn({ text, className }: { text: string; className?: string }) {
  const lines = parseMrkdwn(text);
  return (
    <div className={cn("break-words", className)}>
      {lines.map((line, index) => (
        <div key={index} className={cn("min-h-[1lh]", line.quote && "border-l-4 border-border pl-3 text-text-muted")}>
          {line.pieces.map((piece, at) => (
            <Piece key={at} piece={piece} />
          ))}
        </div>
      ))}
    </div>
  );
}

function TextObject({ text }: { text: { type: "plain_text" | "mrkdwn"; text: string } }) {
  return text.type === "mrkdwn" ? <Mrkdwn text={text.text} /> : <span className="whitespace-pre-wrap break-words">{text.text}</span>;
}

function Block({ block }: { block: SlackMessage["blocks"][number] }): ReactNode {
  switch (block.type) {
    case "header":
      return <h3 className="text-lg font-bold leading-snug">{block.text.text}</h3>;
    case "section":
      return (
        <div className="space-y-2">
          {block.text && <TextObject text={block.text} />}
          {block.fields && (
            <div className="grid grid-cols-1 gap-x-6 gap-y-2 sm:grid-cols-2" data-testid="slack-fields">
              {block.fields.map((field, index) => (
                <TextObject key={index} text={field} />
              ))}
            </div>
          )}
        </div>
      );
    case "divider":
      return <hr className="border-border" />;
    case "context":
      return (
        <div className="flex flex-wrap gap-x-2 text-xs text-text-muted">
          {block.elements.map((element, index) => (
            <TextObject key={index} text={element} />
          ))}
        </div>
      );
    case "actions":
      return (
        <div className="flex flex-wrap gap-2">
          {block.elements.map((element) => (
            <a
              key={element.action_id}
              href={element.url}
              target="_blank"
              rel="noreferrer noopener"
              className={cn(
                "rounded-md border px-3 py-1 text-sm font-bold",
                element.style === "primary"
                  ? "border-emerald-700 bg-emerald-700 text-white hover:bg-emerald-800 dark:border-emerald-600 dark:bg-emerald-600 dark:text-white"
                  : "border-border bg-surface hover:bg-surface-muted",
              )}
            >
              {element.text.text}
            </a>
          ))}
        </div>
      );
  }
}

/** The message as a Slack channel shows it; `at` is when it was sent (the name line's time). */
export function SlackPreview({ message, at }: { message: SlackMessage; at: string }) {
  return (
    <div className="flex gap-3 rounded-lg border border-border bg-surface p-3 font-sans text-[15px] leading-normal" data-testid="slack-preview">
      <div aria-hidden className="flex size-9 shrink-0 items-center justify-center rounded-md bg-accent text-lg font-bold text-accent-text">
        B
      </div>
      <div className="min-w-0 flex-1 space-y-2">
        <p className="flex flex-wrap items-baseline gap-x-1.5">
          <span className="font-bold">Benchtrack</span>
          <span className="rounded bg-surface-muted px-1 text-[10px] font-semibold tracking-wide text-text-muted">APP</span>
          <span className="text-xs text-text-muted">{at.slice(11, 16)}</span>
        </p>
        {message.blocks.map((block, index) => (
          <Block key={index} block={block} />
        ))}
        <div className="border-t border-border pt-2 text-xs text-text-muted">
          <p className="font-semibold">Notification text (what a phone shows)</p>
          <Mrkdwn text={message.text} />
        </div>
      </div>
    </div>
  );
}

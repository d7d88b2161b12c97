import { cn } from "@/components/lib/cn";
import { parseTeamsMarkdown } from "@/server/domain/webhooks/teams-text";
import type { TeamsMessage } from "@/server/schemas/webhooks";

/**
 * A card-like rendering of the Adaptive Card subset Benchtrack sends to Teams
 * (server/domain/webhooks/teams-message.ts): TextBlocks with their size, weight and colour, FactSets,
 * Containers with separators, and Action.OpenUrl buttons. Text is rendered as text, never as HTML.
 */

type Card = TeamsMessage["attachments"][number]["content"];
type Element = Card["body"][number];
type TextBlock = Extract<Element, { type: "TextBlock" }>;

const COLORS: Record<NonNullable<TextBlock["color"]>, string> = {
  Default: "",
  Good: "text-good",
  Warning: "text-warn",
  Attention: "text-bad",
  Accent: "text-accent",
};
const SIZES: Record<NonNullable<TextBlock["size"]>, string> = { Small: "text-xs", Default: "text-sm", Medium: "text-base", Large: "text-xl" };

function Markdown({ text }: { text: string }) {
  return (
    <>
      {parseTeamsMarkdown(text).map((piece, index) =>
        piece.kind === "link" ? (
          <a key={index} href={piece.url} target="_blank" rel="noreferrer noopener" className={cn("text-accent hover:underline", piece.bold && "font-semibold")}>
            {piece.text}
          </a>
        ) : (
          <span key={index} className={cn(piece.bold && "font-semibold", piece.italic && "italic")}>
            {piece.text}
          </span>
        ),
      )}
    </>
  );
}

function Text({ block }: { block: TextBlock }) {
  return (
    <p
      className={cn(
        "break-words",
        SIZES[block.size ?? "Default"],
        block.weight === "Bolder" && "font-semibold",
        block.color ? COLORS[block.color] : "",
        block.isSubtle && "text-text-muted",
        block.spacing === "None" ? "-mt-2" : "",
      )}
    >
      <Markdown text={block.text} />
    </p>
  );
}

function CardElement({ element }: { element: Element }) {
  if (element.type === "TextBlock") return <Text block={element} />;
  if (element.type === "FactSet") {
    return (
      <dl className="grid grid-cols-[minmax(0,auto)_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm">
        {element.facts.map((fact, index) => (
          <div key={index} className="contents">
            <dt className="font-semibold break-words">
              <Markdown text={fact.title} />
            </dt>
            <dd className="break-words">
              <Markdown text={fact.value} />
            </dd>
          </div>
        ))}
      </dl>
    );
  }
  return (
    <div className={cn("space-y-2", element.separator && "border-t border-border pt-3")}>
      {element.items.map((item, index) => (
        <Text key={index} block={item} />
      ))}
    </div>
  );
}

/** The card as a Teams channel shows it. */
export function TeamsPreview({ message, at }: { message: TeamsMessage; at: string }) {
  const card = message.attachments[0]!.content;
  return (
    <div className="rounded-lg border border-border bg-surface-muted p-3" data-testid="teams-preview">
      <p className="mb-2 flex items-baseline gap-2 text-xs text-text-muted">
        <span className="font-semibold text-text">Benchtrack</span>
        <span>via Workflows</span>
        <span>{at.slice(11, 16)}</span>
      </p>
      <div className="space-y-3 rounded-md border-t-4 border-accent bg-surface p-4 shadow-sm">
        {card.body.map((element, index) => (
          <CardElement key={index} element={element} />
        ))}
        {card.actions.length > 0 && (
          <div className="flex flex-wrap gap-2 pt-1">
            {card.actions.map((action) => (
              <a
                key={action.url}
                href={action.url}
                target="_blank"
                rel="noreferrer noopener"
                className="rounded border border-border px-3 py-1.5 text-sm font-semibold text-accent hover:bg-surface-muted"
              >
                {action.title}
              </a>
            ))}
          </div>
        )}
      </div>
    </div>
  );
}

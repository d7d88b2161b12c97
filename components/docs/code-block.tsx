import { CopyButton } from "@/components/ui/copy-button";

/**
 * A copy-pasteable code block: scrolls sideways inside its own box on narrow screens (a curl line
 * is never wrapped mid-argument), with a Copy button for the whole text.
 */
export function CodeBlock({ code, title, language }: { code: string; title: string; language?: string }) {
  return (
    <figure className="border-border bg-surface-muted mt-3 min-w-0 overflow-hidden rounded-md border">
      <figcaption className="border-border text-text-muted flex items-center justify-between gap-2 border-b px-3 py-1.5 text-xs">
        <span className="truncate">{title}</span>
        <CopyButton text={code} label={title} />
      </figcaption>
      <pre className="overflow-x-auto p-3 text-xs leading-relaxed" tabIndex={0}>
        <code className={language ? `language-${language}` : undefined}>{code}</code>
      </pre>
    </figure>
  );
}

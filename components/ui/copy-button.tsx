"use client";

import { useEffect, useState } from "react";

type CopyState = "idle" | "copied" | "failed";
const LABEL: Record<Exclude<CopyState, "idle">, string> = { copied: "Copied", failed: "Copy failed: select and copy" };

/** Copies `text` to the clipboard; falls back to a hidden textarea where the Clipboard API is absent (plain http). */
async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.appendChild(area);
    area.select();
    // The legacy command still works where navigator.clipboard needs a secure context.
    const copied = document.execCommand("copy");
    area.remove();
    return copied;
  }
}

/**
 * `label` names what is copied (for screen readers); `idleText` is the visible caption. `text` may be
 * a function that finds the text when clicked (a share link minted then); its failure shows as a failed copy.
 */
export function CopyButton({
  text,
  label,
  idleText = "Copy",
  className,
  testId,
}: {
  text: string | (() => Promise<string>);
  label: string;
  idleText?: string;
  className?: string;
  testId?: string;
}) {
  const [state, setState] = useState<CopyState>("idle");

  useEffect(() => {
    if (state === "idle") return;
    const timer = window.setTimeout(() => setState("idle"), 2000);
    return () => window.clearTimeout(timer);
  }, [state]);

  return (
    <button
      type="button"
      onClick={() => {
        const copy = async () => copyText(typeof text === "string" ? text : await text());
        void copy()
          .catch(() => false)
          .then((copied) => setState(copied ? "copied" : "failed"));
      }}
      className={
        className ??
        "border-border bg-surface text-text-muted hover:bg-surface-muted hover:text-text rounded border px-2 py-0.5 text-xs"
      }
      aria-label={state === "idle" ? `Copy ${label}` : LABEL[state]}
      data-testid={testId}
    >
      <span aria-live="polite">{state === "idle" ? idleText : LABEL[state]}</span>
    </button>
  );
}

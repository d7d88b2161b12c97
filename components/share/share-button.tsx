"use client";

import { useMutation } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { useProjectAccess } from "@/components/providers/project-access";
import { useTRPC } from "@/components/providers/trpc-provider";
import { formatUtcTimestamp } from "@/components/runs/display";
import { CopyButton } from "@/components/ui/copy-button";
import type { RouterOutputs } from "@/server/api/root";
import { SHARE_LINK_DEFAULT_DAYS } from "@/server/schemas/share-links";

/** What a share link opens: this comparison (as the page asks for it: pinned when minted) or this run. */
export type ShareTarget = { compare: { base: string; head: string; tool: string | null; last: number | null } } | { run: string };

type MintedLink = RouterOutputs["share"]["create"];

const EXPIRY_CHOICES = [
  { days: 1, label: "1 day" },
  { days: 7, label: "7 days" },
  { days: 30, label: "30 days" },
  { days: 90, label: "90 days" },
  { days: 365, label: "1 year" },
] as const;

/** The compare page's view state rides along in a minted link (it does not change what the link opens). */
const VIEW_PARAMS = ["test", "show", "metric", "endpoint"] as const;

function withPageView(url: string): string {
  const next = new URL(url);
  const current = new URLSearchParams(window.location.search);
  for (const key of VIEW_PARAMS) {
    const value = current.get(key);
    if (value !== null) next.searchParams.set(key, value);
  }
  return next.toString();
}

/**
 * Share links of one target for this browser: whether it may mint them (the "share" action on a private
 * project: its maintainers, server admins; CI mints its own with a token with the read scope) and `mint`, which keeps the default-expiry link it made
 * for the page's Copy buttons.
 */
export function useShareMinter(project: string, target: ShareTarget) {
  const trpc = useTRPC();
  const access = useProjectAccess(project);
  // A public project's links open for anyone as they are; a private one's need a share link, minted by who may "share".
  const canMint = access.can("share") && access.visibility === "private";
  const create = useMutation(trpc.share.create.mutationOptions());
  const [cached, setCached] = useState<Promise<MintedLink> | null>(null);
  const mint = async (expiresInDays: number): Promise<MintedLink> => {
    const link = await create.mutateAsync({ project, link: { ...target, expiresInDays } });
    return { ...link, url: withPageView(link.url) };
  };
  const mintDefault = () => {
    const promise = cached ?? mint(SHARE_LINK_DEFAULT_DAYS);
    if (cached === null) {
      setCached(promise);
      // A failed mint is not kept: the next click tries again.
      promise.catch(() => setCached(null));
    }
    return promise;
  };
  return { canMint, mint, mintDefault, error: create.error };
}

const BUTTON = "rounded-md border border-border bg-surface px-3 py-1.5 text-sm text-text hover:bg-surface-muted focus-visible:outline-2";

/**
 * The Share button of the compare and run pages, on a private server for an admin: mints a read-only
 * link with the chosen expiry, shows it and its expiry, and copies it. On an open server it is not shown:
 * the page's own URL opens for anyone, so Copy link is all there is to share.
 */
export function ShareButton({ project, target, what, className = BUTTON }: { project: string; target: ShareTarget; what: string; className?: string }) {
  const { canMint, mint } = useShareMinter(project, target);
  const dialog = useRef<HTMLDialogElement>(null);
  const [days, setDays] = useState<number>(SHARE_LINK_DEFAULT_DAYS);
  const [link, setLink] = useState<MintedLink | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!canMint) return null;
  const isCompare = "compare" in target;

  const create = async () => {
    setBusy(true);
    setError(null);
    try {
      setLink(await mint(days));
    } catch (cause) {
      setError(cause instanceof Error ? cause.message : "The link could not be made");
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <button type="button" className={className} onClick={() => dialog.current?.showModal()} data-testid="share-button">
        Share
      </button>
      <dialog
        ref={dialog}
        aria-labelledby="share-dialog-title"
        className="m-auto w-[min(36rem,calc(100vw-2rem))] rounded-lg border border-border bg-surface p-0 text-text shadow-xl backdrop:bg-black/40"
        data-testid="share-dialog"
      >
        <div className="space-y-3 p-4">
          <h2 id="share-dialog-title" className="text-lg font-semibold">
            Share {what}
          </h2>
          <p className="text-sm text-text-muted">
            {isCompare
              ? "A read-only link to this comparison, pinned to the runs it shows now. Whoever has it can open the comparison and the pages, raw uploads and JSON of those runs without signing in — nothing else of the project — until it expires."
              : "A read-only link to this run. Whoever has it can open the run's page, raw upload and JSON without signing in — nothing else of the project — until it expires."}
          </p>
          <fieldset className="flex flex-wrap items-center gap-2 text-sm">
            <legend className="mb-1 text-xs text-text-muted">Expires after</legend>
            {EXPIRY_CHOICES.map((choice) => (
              <label key={choice.days} className="flex items-center gap-1 rounded border border-border px-2 py-0.5 has-checked:border-accent">
                <input type="radio" name="share-expiry" value={choice.days} checked={days === choice.days} onChange={() => setDays(choice.days)} />
                {choice.label}
              </label>
            ))}
          </fieldset>
          <div className="flex flex-wrap gap-2">
            <button
              type="button"
              onClick={() => void create()}
              disabled={busy}
              className="rounded-md bg-accent px-3 py-1.5 text-sm font-medium text-accent-text hover:opacity-90 disabled:opacity-60"
              data-testid="share-create"
            >
              {busy ? "Creating…" : link ? "Create another link" : "Create link"}
            </button>
            <button type="button" className={BUTTON} onClick={() => dialog.current?.close()}>
              Close
            </button>
          </div>
          {error && (
            <p role="alert" className="text-sm text-bad">
              {error}
            </p>
          )}
          {link && (
            <div className="space-y-2 rounded-md border border-border bg-surface-muted p-3" data-testid="share-result">
              <label className="block text-xs text-text-muted">
                Share link
                <input
                  readOnly
                  value={link.url}
                  onFocus={(event) => event.currentTarget.select()}
                  className="mt-1 w-full rounded border border-border bg-surface px-2 py-1 font-mono text-xs text-text"
                  data-testid="share-url"
                />
              </label>
              <p className="text-xs text-text-muted" data-testid="share-expires">
                Opens until {formatUtcTimestamp(link.expiresAt)}.
              </p>
              <div className="flex flex-wrap gap-2">
                <CopyButton text={link.url} label="share link" idleText="Copy link" className={BUTTON} testId="share-copy-link" />
                {link.markdown !== null && (
                  <CopyButton text={link.markdown} label="Markdown with share links" idleText="Copy Markdown" className={BUTTON} testId="share-copy-markdown" />
                )}
              </div>
            </div>
          )}
        </div>
      </dialog>
    </>
  );
}

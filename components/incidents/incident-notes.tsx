"use client";

import { useState } from "react";
import { Problem } from "@/components/settings/problem";
import type { AdminCallError } from "@/components/settings/problem";
import { safeHttpUrl } from "@/server/domain/urls";
import { describeLink } from "./display";
import { useIncidentUpdate } from "./use-incident-update";

const INPUT = "w-full rounded border border-border bg-surface px-2 py-1 text-sm text-text";
const BUTTON = "rounded-md border border-border px-2.5 py-1 text-sm hover:border-accent disabled:opacity-50";

/** An incident's note: what was found, what was done. An admin edits it (an event in its history); a reader reads it. */
export function IncidentNote({
  project,
  number,
  note,
  canEdit,
}: {
  project: string;
  number: number;
  note: string | null;
  canEdit: boolean;
}) {
  const update = useIncidentUpdate();
  const [draft, setDraft] = useState(note ?? "");
  const [stored, setStored] = useState(note);
  const [saved, setSaved] = useState(false);
  const [error, setError] = useState<AdminCallError | null>(null);
  // The stored note changed (saved here, or with a state change): the field shows it.
  if (note !== stored) {
    setStored(note);
    setDraft(note ?? "");
  }
  const changed = draft.trim() !== (note ?? "");

  if (!canEdit) {
    return note ? (
      <p className="text-sm [overflow-wrap:anywhere] whitespace-pre-wrap" data-testid="incident-note">
        {note}
      </p>
    ) : (
      <p className="text-text-muted text-sm" data-testid="incident-note">
        No note yet.
      </p>
    );
  }
  return (
    <form
      className="space-y-2"
      onSubmit={(event) => {
        event.preventDefault();
        setError(null);
        update.mutate(
          { project, numbers: [number], note: draft.trim() === "" ? null : draft.trim() },
          { onSuccess: () => setSaved(true), onError: (failure) => setError(failure) },
        );
      }}
    >
      <label className="block text-sm">
        <span className="sr-only">Note</span>
        <textarea
          value={draft}
          onChange={(event) => {
            setDraft(event.target.value);
            setSaved(false);
          }}
          rows={3}
          maxLength={4000}
          placeholder="What was found, what was done"
          className={INPUT}
          data-testid="incident-note-input"
        />
      </label>
      <div className="flex items-center gap-3">
        <button type="submit" disabled={!changed || update.isPending} className={BUTTON}>
          Save note
        </button>
        {saved && !changed && (
          <span role="status" className="text-good text-sm">
            Saved.
          </span>
        )}
      </div>
      {error && <Problem error={error} />}
    </form>
  );
}

/**
 * An incident's links (pull requests, commits, issues), labelled as people write references
 * ("acme/shop#12"). An admin adds and removes them (each change an event in its history).
 */
export function IncidentLinks({
  project,
  number,
  links,
  canEdit,
}: {
  project: string;
  number: number;
  links: readonly string[];
  canEdit: boolean;
}) {
  const update = useIncidentUpdate();
  const [draft, setDraft] = useState("");
  const [invalid, setInvalid] = useState<string | null>(null);
  const [error, setError] = useState<AdminCallError | null>(null);
  const save = (next: string[], onSaved?: () => void) => {
    setError(null);
    update.mutate(
      { project, numbers: [number], links: next },
      { onSuccess: onSaved, onError: (failure) => setError(failure) },
    );
  };

  return (
    <div className="space-y-2">
      {links.length === 0 ? (
        <p className="text-text-muted text-sm">No links yet.</p>
      ) : (
        <ul className="space-y-1 text-sm" data-testid="incident-links">
          {links.map((url) => {
            const label = describeLink(url);
            return (
              <li key={url} className="flex flex-wrap items-center gap-x-2">
                {label.href ? (
                  <a
                    href={label.href}
                    target="_blank"
                    rel="noopener noreferrer"
                    title={url}
                    className="text-accent font-medium [overflow-wrap:anywhere] hover:underline"
                  >
                    {label.text}
                  </a>
                ) : (
                  <span className="[overflow-wrap:anywhere]">{label.text}</span>
                )}
                {label.kind !== "link" && <span className="text-text-muted text-xs">{label.kind}</span>}
                {canEdit && (
                  <button
                    type="button"
                    onClick={() => save(links.filter((link) => link !== url))}
                    disabled={update.isPending}
                    aria-label={`Remove link ${label.text}`}
                    className="text-text-muted hover:text-bad text-xs"
                  >
                    remove
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {canEdit && (
        <form
          className="flex flex-wrap gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            const url = draft.trim();
            if (safeHttpUrl(url) === null) {
              setInvalid("A link is an http:// or https:// URL: a pull request, a commit, an issue.");
              return;
            }
            setInvalid(null);
            if (links.includes(url)) {
              setDraft("");
              return;
            }
            save([...links, url], () => setDraft(""));
          }}
        >
          <label className="min-w-0 flex-1 basis-56">
            <span className="sr-only">Link</span>
            <input
              type="url"
              value={draft}
              onChange={(event) => setDraft(event.target.value)}
              placeholder="https://github.com/acme/shop/pull/12"
              maxLength={1024}
              className={INPUT}
              data-testid="incident-link-input"
            />
          </label>
          <button type="submit" disabled={draft.trim() === "" || update.isPending} className={BUTTON}>
            Add link
          </button>
        </form>
      )}
      {invalid && (
        <p role="alert" className="text-bad text-sm">
          {invalid}
        </p>
      )}
      {error && <Problem error={error} />}
    </div>
  );
}

"use client";

import Link from "next/link";
import { ALL_BRANCHES, branchName, branchUrlValue, MAX_TREND_BRANCHES, NO_BRANCH } from "@/server/domain/series/trend-branches";
import { LabeledSelect } from "./trend-controls";
import type { EndpointTrendsData } from "./trend-chart-data";

type Branches = EndpointTrendsData["branches"];

/** The URL values of the branches drawn (`all` for every run). */
export function drawnBranchValues(branches: Branches): string[] {
  return branches.kind === "every" ? [ALL_BRANCHES] : branches.branches.map(branchUrlValue);
}

/**
 * Which branches the page draws: one branch (or every run, as one mixed series), and another branch to
 * add as a line of its own (one line per branch). Each choice is a URL (`branch=` repeated), so the view
 * is shareable.
 */
export function BranchControls({
  branches,
  defaultBranch,
  options,
  onChange,
}: {
  branches: Branches;
  defaultBranch: string;
  /** The project's branches (the runs naming none are offered as "none"). */
  options: readonly string[];
  /** The URL's new branch values. */
  onChange: (branches: string[]) => void;
}) {
  const drawn = drawnBranchValues(branches);
  const named = [defaultBranch, ...options.filter((option) => option !== defaultBranch)];
  // A branch from the URL that no run has any more stays selectable, so the select never lies.
  const choices = [...new Set([...named, ...drawn.filter((value) => value !== ALL_BRANCHES && value !== NO_BRANCH)])];
  const addable = branches.kind === "some" && drawn.length < MAX_TREND_BRANCHES ? [...choices, NO_BRANCH].filter((value) => !drawn.includes(value)) : [];
  const label = (value: string) => (value === NO_BRANCH ? "No branch (runs without one)" : value === defaultBranch ? `${value} (default)` : value);
  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-2" data-testid="trend-branch-controls">
      <LabeledSelect id="trend-branch" label="Branch" value={drawn[0] ?? defaultBranch} onChange={(value) => onChange([value])}>
        {choices.map((value) => (
          <option key={value} value={value}>
            {label(value)}
          </option>
        ))}
        <option value={NO_BRANCH}>{label(NO_BRANCH)}</option>
        <option value={ALL_BRANCHES}>All branches (mixed series)</option>
      </LabeledSelect>
      {addable.length > 0 && (
        <LabeledSelect id="trend-branch-add" label="Add a line for" value="" onChange={(value) => value !== "" && onChange([...drawn, value])}>
          <option value="">another branch…</option>
          {addable.map((value) => (
            <option key={value} value={value}>
              {label(value)}
            </option>
          ))}
        </LabeledSelect>
      )}
      {drawn.length > 1 && (
        <ul className="flex flex-wrap gap-1.5" aria-label="Branches drawn">
          {drawn.map((value) => (
            <li key={value}>
              <button
                type="button"
                onClick={() => onChange(drawn.filter((other) => other !== value))}
                className="border-border bg-surface-muted text-text hover:text-bad inline-flex items-center gap-1 rounded-full border px-2 py-0.5 text-xs"
                title={`Stop drawing ${branchName(value === NO_BRANCH ? null : value)}`}
                data-testid="trend-branch-remove"
              >
                {branchName(value === NO_BRANCH ? null : value)} <span aria-hidden>×</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** What the page draws, in words, and how to change it: always said, since the default hides other branches. */
export function BranchNote({
  branches,
  defaultBranch,
  hrefFor,
}: {
  branches: Branches;
  defaultBranch: string;
  /** The page with these branch values. */
  hrefFor: (branches: string[]) => string;
}) {
  const allLink = (
    <Link className="text-accent hover:underline" href={hrefFor([ALL_BRANCHES])}>
      every branch as one series
    </Link>
  );
  const defaultLink = (
    <Link className="text-accent hover:underline" href={hrefFor([])}>
      {defaultBranch} only
    </Link>
  );
  let text;
  if (branches.kind === "every") {
    text =
      branches.why === "no-branch-data" ? (
        <>No run of this project names a branch, so every run is drawn. Upload runs with their git branch to draw {defaultBranch}, the default branch, alone.</>
      ) : (
        <>Showing every branch&apos;s runs as one series, as asked: pull-request and {defaultBranch} runs are mixed in one line. Back to {defaultLink}.</>
      );
  } else if (branches.branches.length > 1) {
    text = <>One line per branch: {branches.branches.map(branchName).join(", ")}. Back to {defaultLink}.</>;
  } else if (branches.why === "default") {
    text = <>Showing {defaultBranch}, the default branch, only: the series the gate judges. Pick another branch, add one as a line of its own, or draw {allLink}.</>;
  } else {
    const only = branches.branches[0] ?? null;
    text = (
      <>
        Showing {only === null ? "the runs uploaded without a branch" : only} only{only === defaultBranch ? ", the default branch" : ""}.{" "}
        {only !== defaultBranch && (
          <>
            Add {defaultBranch} as a line of its own (
            <Link className="text-accent hover:underline" href={hrefFor([branchUrlValue(only), defaultBranch])}>
              {branchName(only)} and {defaultBranch}
            </Link>
            ), or back to {defaultLink}.
          </>
        )}
      </>
    );
  }
  return (
    <p className="text-text-muted text-xs" data-testid="trend-branch-note">
      {text}
    </p>
  );
}

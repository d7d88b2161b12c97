import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { describeMetricRounds } from "@/server/domain/compare/rounds-needed";
import { describeValues, shortCommit } from "@/server/domain/compare/environment-diff";
import type { ComparisonData } from "./types";

type Comparison = ComparisonData["comparison"];

/** Beside the verdict: what makes the comparison unfair, in words (environment-diff.ts). */
export function UnfairWarning({ sentences }: { sentences: Comparison["environment"]["unfair"] }) {
  if (sentences.length === 0) return null;
  return (
    <div role="alert" className="border-warn rounded-md border p-3 text-sm" data-testid="compare-unfair">
      <p className="text-warn font-medium">⚠ Unfair comparison: base and head were not measured alike.</p>
      <ul className="mt-1 list-disc pl-5 break-words">
        {sentences.map((sentence) => (
          <li key={sentence}>{sentence}</li>
        ))}
      </ul>
    </div>
  );
}

/** Beside an undecided group verdict: how many rounds per side would settle it (rounds-needed.ts). */
export function RoundsNote({ rounds }: { rounds: Comparison["rounds"] }) {
  if (!rounds) return null;
  const others = rounds.metrics.filter(
    (entry) => entry.endpoint !== rounds.headline.endpoint || entry.metric !== rounds.headline.metric,
  );
  return (
    <div className="max-w-3xl text-sm" data-testid="compare-rounds">
      <p>
        <span className="font-medium">How many rounds?</span> {rounds.sentence}
      </p>
      {others.length > 0 && (
        <details className="text-text-muted mt-1 text-xs">
          <summary className="cursor-pointer">
            {others.length} other undecided metric{others.length === 1 ? "" : "s"}
          </summary>
          <ul className="mt-1 list-disc space-y-0.5 pl-5 break-words">
            {others.map((entry) => (
              <li key={`${entry.endpoint}-${entry.metric}`}>{describeMetricRounds(entry, rounds)}</li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

/** One commit, linked to the repository when the project names it. */
function CommitLink({ commit }: { commit: { sha: string; url: string | null } }) {
  const text = <code>{shortCommit(commit.sha)}</code>;
  return commit.url ? (
    <a href={commit.url} className="text-accent underline" rel="noreferrer">
      {text}
    </a>
  ) : (
    text
  );
}

function CommitList({ commits }: { commits: { sha: string; url: string | null }[] }) {
  if (commits.length === 0) return <span className="text-text-muted">unknown</span>;
  return (
    <>
      {commits.map((commit, index) => (
        <span key={commit.sha}>
          {index > 0 && ", "}
          <CommitLink commit={commit} />
        </span>
      ))}
    </>
  );
}

/**
 * What changed between base and head besides the code: only the differences, unfair ones marked in
 * words, the commits with their diff; what both sides share folded into one line.
 */
export function WhatChanged({ environment }: { environment: Comparison["environment"] }) {
  const { differences, commits, same } = environment;
  if (differences.length === 0 && commits === null && same.length === 0) return null;
  return (
    <Card title="What changed besides the code">
      <div className="space-y-2 text-sm" data-testid="compare-environment">
        {differences.length === 0 && commits === null ? (
          <p>Nothing differs in what the runs state about their setup.</p>
        ) : (
          <ul className="space-y-1">
            {differences.map((difference) => (
              <li
                key={`${difference.field}-${difference.name}`}
                className="break-words"
                data-testid="compare-difference"
              >
                <span className="font-medium">{difference.name}</span> <span className="text-text-muted">base</span>{" "}
                {describeValues(difference.base)} → <span className="text-text-muted">head</span>{" "}
                {describeValues(difference.head)}
                {difference.isUnfair && (
                  <>
                    {" "}
                    <Badge tone="warn" title="Alone, this difference can move the numbers">
                      ⚠ unfair
                    </Badge>
                  </>
                )}
              </li>
            ))}
            {commits && (
              <li className="break-words" data-testid="compare-commits">
                <span className="font-medium">commits</span> <span className="text-text-muted">base</span>{" "}
                <CommitList commits={commits.base} /> → <span className="text-text-muted">head</span>{" "}
                <CommitList commits={commits.head} />
                {commits.diffUrl && (
                  <>
                    {" "}
                    ·{" "}
                    <a
                      href={commits.diffUrl}
                      className="text-accent underline"
                      rel="noreferrer"
                      data-testid="compare-diff-link"
                    >
                      view the diff
                    </a>
                  </>
                )}
                {commits.mixed.length > 0 && (
                  <span className="text-warn block text-xs">
                    {commits.mixed.map((side) => `The ${side} mixes ${commits[side].length} commits`).join("; ")}: its
                    rounds measure different code.
                  </span>
                )}
              </li>
            )}
          </ul>
        )}
        {same.length > 0 && (
          <p className="text-text-muted text-xs break-words" data-testid="compare-same">
            Same {same.join(", ")}.
          </p>
        )}
      </div>
    </Card>
  );
}

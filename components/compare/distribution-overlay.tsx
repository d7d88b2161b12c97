"use client";

import { ScopedLink } from "@/components/share/share-context";
import { LatencyCdfChart } from "@/components/charts/latency-cdf-chart";
import { Card } from "@/components/ui/card";
import { Table, Td, Th } from "@/components/ui/table";
import { formatDeltaPct, formatMs, formatNumber, formatPct, formatPValue } from "@/server/domain/format";
import { AGGREGATE_NAME } from "@/server/domain/run";
import { resultDisplayName, wordsOf } from "@/server/domain/result-kind";
import type { ResultKind } from "@/server/domain/result-kind";
import type { ComparisonData } from "./types";

type Distributions = ComparisonData["distributions"];

function sideSentence(side: "base" | "head", info: Distributions["endpoints"][number]["base"], kind: ResultKind): string {
  return `${side}: ${formatNumber(info.count, 0)} ${wordsOf(kind).count} pooled from ${info.runs} run${info.runs === 1 ? "" : "s"}`;
}

/**
 * Base vs head latency distributions for one endpoint (the URL's `endpoint`, the aggregate by default):
 * pooled across rounds by adding histogram counts, drawn as two CDFs, with a binned KS test that is
 * labelled for what it is — a statement about shapes, not the round-based verdict.
 */
export function DistributionOverlay({
  distributions,
  endpoint,
  kindOf,
  hrefFor,
}: {
  distributions: Distributions;
  endpoint: string;
  /** An endpoint's kind by name (server/domain/result-kind.ts): a benchmark's distribution is of its samples' time per operation. */
  kindOf: (endpoint: string) => ResultKind;
  hrefFor: (endpoint: string) => string;
}) {
  const entry = distributions.endpoints.find((candidate) => candidate.endpoint === endpoint);
  const kind = kindOf(endpoint);
  const words = wordsOf(kind);
  const displayName = (name: string) => resultDisplayName(name, kindOf(name));
  const name = displayName(endpoint);
  const { biggestChange } = distributions;
  // Benchmarks have no aggregate distribution to offer (their runs' aggregate holds no numbers).
  const choices = distributions.endpoints.filter((candidate) => candidate.endpoint !== AGGREGATE_NAME || kindOf(AGGREGATE_NAME) !== "benchmark");
  const changedMost = `the ${biggestChange === null ? "endpoint" : wordsOf(kindOf(biggestChange)).noun} whose distribution changed most`;
  return (
    <Card
      title={`${kind === "benchmark" ? "Time per operation" : "Latency"} distribution: ${name}`}
      data-testid="distribution-overlay"
      actions={
        choices.length > 1 && (
          <div className="flex flex-wrap gap-2 text-xs">
            {choices.map((candidate) => (
              <ScopedLink
                key={candidate.endpoint}
                href={hrefFor(candidate.endpoint)}
                aria-current={candidate.endpoint === endpoint ? "true" : undefined}
                className={TOGGLE}
                title={candidate.endpoint === biggestChange ? changedMost : undefined}
              >
                {displayName(candidate.endpoint)}
                {candidate.endpoint === biggestChange ? " ★" : ""}
              </ScopedLink>
            ))}
          </div>
        )
      }
    >
      {!entry ? (
        <p className="text-sm text-text-muted" role="status" data-testid="distribution-unavailable">
          {name} is not on both sides, so there is no distribution to compare.
        </p>
      ) : entry.status === "unavailable" ? (
        <p className="text-sm text-text-muted" role="status" data-testid="distribution-unavailable">
          No distribution overlay: {entry.reason}
        </p>
      ) : (
        <div className="space-y-3">
          <p className="text-xs text-text-muted">
            {sideSentence("base", entry.base, kind)} · {sideSentence("head", entry.head, kind)}. Counts are added bucket by bucket across
            rounds (never percentiles averaged); each curve is the share of {words.count} at or below a{" "}
            {kind === "benchmark" ? "time per operation" : "latency"}.
            {biggestChange && biggestChange !== endpoint && (
              <>
                {" "}
                {changedMost.charAt(0).toUpperCase() + changedMost.slice(1)}:{" "}
                <ScopedLink href={hrefFor(biggestChange)} className="text-accent underline">
                  {displayName(biggestChange)}
                </ScopedLink>
                .
              </>
            )}
          </p>
          <LatencyCdfChart
            points={entry.cdf}
            gapAtMs={entry.test.statistic > 0 ? entry.test.atMs : null}
            axisTitle={words.latencyTitle}
            label={`Cumulative ${kind === "benchmark" ? "time per operation" : "latency"} distributions of ${name}, base and head, on a log axis`}
          />
          <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,1.4fr)]">
            <Table label={`Pooled percentiles of ${name}`}>
              <thead>
                <tr>
                  <Th>Pooled</Th>
                  <Th numeric>Base</Th>
                  <Th numeric>Head</Th>
                  <Th numeric>Δ</Th>
                </tr>
              </thead>
              <tbody>
                {entry.quantiles.map((quantile) => (
                  <tr key={quantile.percentile}>
                    <Td>p{quantile.percentile}</Td>
                    <Td numeric>{formatMs(quantile.baseMs)}</Td>
                    <Td numeric>{formatMs(quantile.headMs)}</Td>
                    <Td numeric>
                      {quantile.baseMs !== null && quantile.headMs !== null && quantile.baseMs > 0
                        ? formatDeltaPct(((quantile.headMs - quantile.baseMs) / quantile.baseMs) * 100)
                        : "–"}
                    </Td>
                  </tr>
                ))}
              </tbody>
            </Table>
            <div className="space-y-2 text-sm" data-testid="distribution-test">
              <p>
                <span className="font-medium">Shapes {entry.test.pValue < 0.05 ? "differ" : "do not differ detectably"}</span> (two-sample
                Kolmogorov–Smirnov on the pooled histograms): D = {formatNumber(entry.test.statistic, 3)}
                {entry.test.statistic > 0 && (
                  <>
                    {" "}
                    at {formatMs(entry.test.atMs)}, where {formatPct(Math.abs(entry.test.signedGap), 1)}{" "}
                    {entry.test.signedGap < 0 ? "fewer" : "more"} of head&apos;s {words.count} are at or below it
                  </>
                )}
                , {formatPValue(entry.test.pValue)}.
              </p>
              <p className="text-xs text-text-muted">
                What this does not prove: the test treats every {words.count === "samples" ? "sample" : "request"} as an independent draw. Those
                within one run are not (they share warm-up, caches, GC pauses and the machine&apos;s noise), and a whole run that is a little
                slower moves all of them together, so with {formatNumber(entry.test.baseCount + entry.test.headCount, 0)} {words.count} almost any
                difference gets a tiny p. Read it as
                &ldquo;the shapes differ&rdquo; and D as how much; whether head is really slower is the verdict above, which treats each round as
                one sample. Binned: D is read at the bucket edges both histograms share, which can only understate the raw-sample D.
              </p>
            </div>
          </div>
        </div>
      )}
    </Card>
  );
}

const TOGGLE =
  "rounded border border-border px-2 py-0.5 text-text-muted hover:text-text aria-[current=true]:border-accent aria-[current=true]:text-text";

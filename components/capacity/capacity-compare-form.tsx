import Link from "next/link";
import { pagePaths } from "@/server/domain/urls";
import type { CapacityData } from "./capacity-chart-data";
import { serializeCapacityView } from "./capacity-view";
import type { CapacityView } from "./capacity-view";

/**
 * Two curves on one chart: base and head as run selectors (the compare page's syntax: `branch:main`,
 * `label:v2`, `commit:9f1c2e7`, or run ids), in a plain GET form, so the result is a link.
 */
export function CapacityCompareForm({
  projectSlug,
  data,
  view,
}: {
  projectSlug: string;
  data: CapacityData;
  view: CapacityView;
}) {
  const branches = [...new Set(data.curves.flatMap((curve) => curve.branches))].sort();
  const labels = data.seriesOptions
    .filter((option) => option.tool === data.series?.tool && option.label !== null)
    .map((option) => option.label!);
  const suggestions = [...branches.map((branch) => `branch:${branch}`), ...labels.map((label) => `label:${label}`)];
  // What the form keeps of the view: everything but the selectors and the drawing choices.
  const kept = new URLSearchParams(
    serializeCapacityView({ ...view, base: null, head: null, lines: null, x: "throughput" }),
  );
  const input = (name: "base" | "head", value: string | null) => (
    <label className="flex min-w-0 flex-col gap-1 text-xs">
      <span className="text-text-muted font-medium">{name}</span>
      <input
        name={name}
        defaultValue={value ?? ""}
        list="capacity-selectors"
        placeholder={name === "base" ? "branch:main" : "branch:feature-x"}
        className="border-border bg-surface w-48 max-w-full min-w-0 rounded-md border px-2 py-1 font-mono text-xs"
      />
    </label>
  );
  return (
    <form
      method="get"
      action={pagePaths.capacity(projectSlug)}
      className="border-border bg-surface flex flex-wrap items-end gap-3 rounded-lg border p-3"
      data-testid="capacity-compare-form"
    >
      {[...kept].map(([key, value]) => (
        <input key={key} type="hidden" name={key} value={value} />
      ))}
      {input("base", view.base)}
      {input("head", view.head)}
      <datalist id="capacity-selectors">
        {suggestions.map((value) => (
          <option key={value} value={value} />
        ))}
      </datalist>
      <button type="submit" className="bg-accent text-accent-text rounded-md px-3 py-1 text-xs font-medium">
        Compare curves
      </button>
      {(view.base !== null || view.head !== null) && (
        <Link href={pagePaths.capacity(projectSlug, kept)} className="text-accent self-center text-xs hover:underline">
          One curve
        </Link>
      )}
      <p className="text-text-muted w-full text-xs">
        Before and after a change on one chart: two branches, labels, commits (<code>commit:9f1c2e7</code>) or lists of
        run ids, each the series&apos; runs that match.
      </p>
    </form>
  );
}

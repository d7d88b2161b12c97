import { pagePaths } from "@/server/domain/urls";

/**
 * The comparison a history selection opens: which selected runs are the base (before) and which the
 * head (after), and the URL of `/projects/{p}/compare?base=<ids>&head=<ids>` (run ids,
 * comma-separated, as /docs/api documents). Pure and isomorphic: the history table calls it on every selection change.
 *
 * The rule, kept simple and shown to the user as a tooltip:
 * - 2 runs: the older is the base, the newer the head.
 * - more: the base is every selected run with the label of the oldest one (e.g. 5 `baseline`
 *   rounds), the head the rest; when all share that label, the oldest run alone is the base.
 * Each side lists its runs oldest first.
 */
export interface SelectedRun {
  id: string;
  startedAt: Date | string | number;
  label: string | null;
}

export interface CompareSelection {
  base: string[];
  head: string[];
  /** One sentence saying how the runs were split, for the Compare button's tooltip. */
  explanation: string;
}

function byAge(a: SelectedRun, b: SelectedRun): number {
  const difference = new Date(a.startedAt).getTime() - new Date(b.startedAt).getTime();
  return difference !== 0 ? difference : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function labelText(label: string | null): string {
  return label === null ? "no label" : `label "${label}"`;
}

/** Splits a selection into base and head; null under 2 runs. */
export function splitCompareSelection(selected: readonly SelectedRun[]): CompareSelection | null {
  const unique = [...new Map(selected.map((run) => [run.id, run])).values()];
  if (unique.length < 2) return null;
  const oldestFirst = [...unique].sort(byAge);
  const [oldest, ...others] = oldestFirst;
  if (!oldest) return null;
  if (oldestFirst.length === 2) {
    return {
      base: [oldest.id],
      head: others.map((run) => run.id),
      explanation: "Base: the older run. Head: the newer run.",
    };
  }
  const sameLabel = oldestFirst.filter((run) => run.label === oldest.label);
  if (sameLabel.length === oldestFirst.length) {
    return {
      base: [oldest.id],
      head: others.map((run) => run.id),
      explanation: `All ${oldestFirst.length} runs have ${labelText(oldest.label)}: base is the oldest run, head the ${others.length} newer ones.`,
    };
  }
  return {
    base: sameLabel.map((run) => run.id),
    head: oldestFirst.filter((run) => run.label !== oldest.label).map((run) => run.id),
    explanation: `Base: the ${sameLabel.length} run(s) with the oldest run's ${labelText(oldest.label)}. Head: the other ${oldestFirst.length - sameLabel.length}.`,
  };
}

/** `/projects/{p}/compare?base=a,b&head=c,d` — commas kept literal, ids encoded (server/domain/urls.ts). */
export function compareHref(projectSlug: string, selection: Pick<CompareSelection, "base" | "head">): string {
  return pagePaths.compare(projectSlug, { base: selection.base, head: selection.head });
}

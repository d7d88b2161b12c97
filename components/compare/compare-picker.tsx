import { EmptyState } from "@/components/ui/empty-state";
import { pagePaths } from "@/server/domain/urls";

/** Choose what to compare when the URL names nothing yet: a plain GET form, so the result is a link. */
export function ComparePicker({
  project,
  labels,
  branches,
}: {
  project: string;
  labels: { value: string; runs: number }[];
  branches: { value: string; runs: number }[];
}) {
  if (labels.length + branches.length === 0) {
    return (
      <EmptyState title="Nothing to compare yet">
        Upload runs with a <code>label</code> or <code>branch</code> (or select runs on the Runs page) to compare them.
      </EmptyState>
    );
  }
  const options = [
    ...labels.map((label) => ({ value: `label:${label.value}`, text: `label ${label.value} (${label.runs} runs)` })),
    ...branches.map((branch) => ({ value: `branch:${branch.value}`, text: `branch ${branch.value} (${branch.runs} runs)` })),
  ];
  const select = (name: "base" | "head", initial: string | undefined) => (
    <label className="flex flex-col gap-1 text-sm">
      <span className="font-medium">{name}</span>
      <select name={name} defaultValue={initial} className="rounded-md border border-border bg-surface px-2 py-1.5">
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.text}
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <form method="get" action={pagePaths.compare(project)} className="flex flex-wrap items-end gap-4 rounded-lg border border-border bg-surface p-4">
      {select("base", options[0]?.value)}
      {select("head", options[1]?.value ?? options[0]?.value)}
      <label className="flex flex-col gap-1 text-sm">
        <span className="font-medium">newest runs per side</span>
        <input name="last" type="number" min={1} max={50} placeholder="all" className="w-28 rounded-md border border-border bg-surface px-2 py-1.5" />
      </label>
      <button type="submit" className="rounded-md bg-accent px-3 py-1.5 text-sm font-medium text-accent-text">
        Compare
      </button>
      <p className="w-full text-xs text-text-muted">
        Or select runs on the Runs page. Links look like <code>?base=label:baseline&amp;head=label:ManagedAsync</code> and never expire.
      </p>
    </form>
  );
}

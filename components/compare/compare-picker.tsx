import { EmptyState } from "@/components/ui/empty-state";
import { pagePaths } from "@/server/domain/urls";
import { defaultSides, TEST_CHOICES } from "./shape";
import type { Choice } from "./shape";

/** Choose what to compare when the URL names nothing yet: a plain GET form, so the result is a link. */
export function ComparePicker({
  project,
  labels,
  branches,
  tools,
}: {
  project: string;
  labels: Choice[];
  branches: Choice[];
  tools: { value: string; runs: number }[];
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
  const defaults = defaultSides(labels, branches);
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
      {select("base", defaults?.base)}
      {select("head", defaults?.head)}
      {tools.length > 1 && (
        <label className="flex flex-col gap-1 text-sm">
          <span className="font-medium">tool</span>
          <select name="tool" defaultValue={tools[0]?.value} className="rounded-md border border-border bg-surface px-2 py-1.5">
            {tools.map((tool) => (
              <option key={tool.value} value={tool.value}>
                {tool.value} ({tool.runs} runs)
              </option>
            ))}
          </select>
        </label>
      )}
      <label className="flex flex-col gap-1 text-sm">
        <span className="font-medium">test</span>
        <select name="test" defaultValue="welch" className="rounded-md border border-border bg-surface px-2 py-1.5">
          {TEST_CHOICES.map((choice) => (
            <option key={choice.test} value={choice.test}>
              {choice.label}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col gap-1 text-sm">
        <span className="font-medium">newest runs per side</span>
        <input name="last" type="number" min={1} max={50} placeholder="all" className="w-28 rounded-md border border-border bg-surface px-2 py-1.5" />
      </label>
      <button type="submit" className="rounded-md bg-accent px-3 py-1.5 text-sm font-medium text-accent-text">
        Compare
      </button>
      <p className="w-full text-xs text-text-muted">
        The base side defaults to the older selection. Runs of different tools are different series: pick one tool.
        Or select runs on the Runs page. Links look like <code>?base=label:baseline&amp;head=label:ManagedAsync&amp;tool=k6</code> and never
        expire.
      </p>
    </form>
  );
}

import Link from "next/link";
import type { ReactNode } from "react";
import type { HistoryFilters } from "@/server/schemas/history";

export interface FilterOptions {
  branches: string[];
  labels: string[];
  tools: string[];
}

const CONTROL =
  "block w-full min-w-0 rounded-md border border-border bg-surface px-2 py-1.5 text-sm text-text focus-visible:border-accent";

/**
 * The history filters as a plain GET form: submitting it loads the same page with the filters in the
 * URL (no JavaScript needed, shareable, back/forward work). Attribute filters already applied ride
 * along as hidden `attr.<key>` fields; the free-text field adds one more ("db=postgres15").
 */
export function HistoryFilterForm({
  action,
  filters,
  options,
  clearHref,
  removeAttributeHrefs,
}: {
  action: string;
  filters: HistoryFilters;
  options: FilterOptions;
  clearHref: string | null;
  removeAttributeHrefs: Record<string, string>;
}) {
  const attributes = Object.entries(filters.attributes);
  return (
    <form
      method="get"
      action={action}
      role="search"
      aria-label="Filter runs"
      className="mb-4 rounded-lg border border-border bg-surface p-3"
      data-testid="history-filters"
    >
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-[repeat(6,minmax(0,1fr))_auto]">
        <Field label="Branch">
          <FilterSelect name="branch" value={filters.branch} values={options.branches} allLabel="All branches" />
        </Field>
        <Field label="Label">
          <FilterSelect name="label" value={filters.label} values={options.labels} allLabel="All labels" />
        </Field>
        <Field label="Tool">
          <FilterSelect name="tool" value={filters.tool} values={options.tools} allLabel="All tools" />
        </Field>
        <Field label="From (UTC)">
          <input type="date" name="from" defaultValue={filters.from ?? ""} className={CONTROL} />
        </Field>
        <Field label="To (UTC)">
          <input type="date" name="to" defaultValue={filters.to ?? ""} className={CONTROL} />
        </Field>
        <Field label="Attribute">
          <input
            type="text"
            name="attr"
            placeholder="key=value"
            title="A run attribute to match exactly, e.g. db=postgres15 (sent as attr.db=postgres15)"
            autoComplete="off"
            spellCheck={false}
            className={CONTROL}
          />
        </Field>
        <div className="col-span-2 flex items-end gap-3 sm:col-span-3 lg:col-span-1">
          <button
            type="submit"
            className="rounded-md bg-accent px-3 py-1.5 text-sm font-medium text-accent-text hover:opacity-90"
          >
            Apply
          </button>
          {clearHref && (
            <Link href={clearHref} className="py-1.5 text-sm whitespace-nowrap text-accent hover:underline">
              Clear filters
            </Link>
          )}
        </div>
      </div>
      {attributes.length > 0 && (
        <ul className="mt-3 flex flex-wrap items-center gap-2 text-sm" aria-label="Attribute filters">
          {attributes.map(([key, value]) => (
            <li key={key} className="flex items-center gap-1 rounded-full bg-surface-muted py-0.5 pr-1 pl-2.5">
              <input type="hidden" name={`attr.${key}`} value={value} />
              <span className="font-mono text-xs">
                {key}={value}
              </span>
              <Link
                href={removeAttributeHrefs[key] ?? action}
                aria-label={`Remove the attribute filter ${key}=${value}`}
                className="rounded-full px-1.5 text-text-muted hover:text-text"
              >
                ✕
              </Link>
            </li>
          ))}
        </ul>
      )}
    </form>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <label className="block min-w-0 text-xs font-medium text-text-muted">
      <span className="mb-1 block">{label}</span>
      {children}
    </label>
  );
}

function FilterSelect({
  name,
  value,
  values,
  allLabel,
}: {
  name: string;
  value: string | undefined;
  values: string[];
  allLabel: string;
}) {
  // A value from the URL that no run has (any more) stays selectable, so the form says what is applied.
  const choices = value !== undefined && !values.includes(value) ? [value, ...values] : values;
  return (
    <select name={name} defaultValue={value ?? ""} className={CONTROL}>
      <option value="">{allLabel}</option>
      {choices.map((choice) => (
        <option key={choice} value={choice}>
          {choice}
        </option>
      ))}
    </select>
  );
}

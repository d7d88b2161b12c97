import Link from "next/link";
import { EmptyState } from "@/components/ui/empty-state";
import type { RouterOutputs } from "@/server/api/root";
import type { HistoryFilters } from "@/server/schemas/history";
import { HistoryFilterForm } from "./history-filters";
import type { FilterOptions } from "./history-filters";
import { RunHistoryTable } from "./run-history-table";

type HistoryPage = RouterOutputs["history"]["list"];

export interface HistoryHrefs {
  /** The page itself, without filters: the form's action. */
  action: string;
  /** Same filters, no cursor; null on the first page. */
  newest: string | null;
  /** The next (older) page; null on the last page. */
  older: string | null;
  /** Without any filter; null when none is applied. */
  clear: string | null;
  /** Per attribute key: the same filters without that attribute. */
  removeAttribute: Record<string, string>;
}

/** `/projects/{p}/runs`: filters, notices, the selectable table and keyset paging. */
export function RunHistory({
  page,
  filters,
  options,
  notices,
  hrefs,
  isFirstPage,
  now,
}: {
  page: HistoryPage;
  filters: HistoryFilters;
  options: FilterOptions;
  notices: string[];
  hrefs: HistoryHrefs;
  isFirstPage: boolean;
  now: number;
}) {
  return (
    <div>
      <HistoryFilterForm
        // Remount on every URL change: the fields are uncontrolled (defaultValue), so a client-side
        // navigation ("Clear filters", removing an attribute) must not keep the previous values.
        key={JSON.stringify(filters)}
        action={hrefs.action}
        filters={filters}
        options={options}
        clearHref={hrefs.clear}
        removeAttributeHrefs={hrefs.removeAttribute}
      />
      {notices.length > 0 && (
        <ul className="mb-4 rounded-lg border border-border bg-surface p-3 text-sm text-warn" role="status">
          {notices.map((notice) => (
            <li key={notice}>{notice}</li>
          ))}
        </ul>
      )}
      {page.runs.length === 0 ? (
        <HistoryEmptyState hrefs={hrefs} isFirstPage={isFirstPage} />
      ) : (
        <RunHistoryTable projectSlug={page.project.slug} repoUrl={page.project.repoUrl} runs={page.runs} now={now} hasSla={page.hasSla} />
      )}
      {(hrefs.newest || hrefs.older) && (
        <nav aria-label="Pages" className="mt-3 flex items-center justify-between gap-3 text-sm">
          {hrefs.newest ? (
            <Link href={hrefs.newest} className="text-accent hover:underline">
              ← Newest
            </Link>
          ) : (
            <span />
          )}
          {hrefs.older && (
            <Link href={hrefs.older} className="text-accent hover:underline" data-testid="older-link">
              Older →
            </Link>
          )}
        </nav>
      )}
    </div>
  );
}

function HistoryEmptyState({ hrefs, isFirstPage }: { hrefs: HistoryHrefs; isFirstPage: boolean }) {
  if (!isFirstPage) {
    return (
      <EmptyState title="No older runs">
        <Link href={hrefs.newest ?? hrefs.action} className="text-accent hover:underline">
          ← Back to the newest runs
        </Link>
      </EmptyState>
    );
  }
  if (hrefs.clear) {
    return (
      <EmptyState title="No runs match these filters">
        Try a wider date range or fewer filters, or{" "}
        <Link href={hrefs.clear} className="text-accent hover:underline">
          clear filters
        </Link>
        .
      </EmptyState>
    );
  }
  return (
    <EmptyState title="No runs yet">
      Upload a run with curl from CI; the project&apos;s{" "}
      <Link href={hrefs.action.replace(/\/runs$/, "")} className="text-accent hover:underline">
        overview
      </Link>{" "}
      shows the command.
    </EmptyState>
  );
}

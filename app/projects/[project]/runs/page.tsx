import { redirect } from "next/navigation";
import { RunHistory } from "@/components/history/run-history";
import type { HistoryHrefs } from "@/components/history/run-history";
import type { PageProps } from "@/server/api/page-url";
import { projectPageTitle, readPageUrl } from "@/server/api/page-url";
import { fetchPageQuery, trpc } from "@/server/api/server";
import { pagePaths } from "@/server/domain/urls";
import { hasActiveFilters, historySearch, parseHistorySearchParams } from "@/server/schemas/history";

// Live data, filtered by the URL: never prerender.
export const dynamic = "force-dynamic";

type Props = PageProps<{ project: string }>;

export const generateMetadata = projectPageTitle("Runs");

/**
 * `/projects/{p}/runs`: every bit of view state is in the URL (`?branch=…&label=…&tool=…&from=…&to=…
 * &attr.<key>=…&cursor=…`), read here and applied by the history procedures, server-side.
 */
export default async function RunHistoryPage(props: Props) {
  const { params, search } = await readPageUrl(props);
  const slug = params.project;
  const path = pagePaths.runs(slug);
  const parsed = parseHistorySearchParams(search);
  // A submitted filter form (empty fields, "attr=key=value") lands on its clean, shareable URL.
  if (parsed.shouldRedirect) redirect(`${path}${parsed.canonical}`);

  const { filters, cursor } = parsed;
  const [page, options] = await Promise.all([
    fetchPageQuery(trpc.history.list.queryOptions({ project: slug, filters, cursor })),
    fetchPageQuery(trpc.history.filterOptions.queryOptions({ project: slug })),
  ]);

  const hrefs: HistoryHrefs = {
    action: path,
    newest: cursor ? `${path}${historySearch(filters)}` : null,
    older: page.nextCursor ? `${path}${historySearch(filters, page.nextCursor)}` : null,
    clear: hasActiveFilters(filters) ? path : null,
    removeAttribute: Object.fromEntries(
      Object.keys(filters.attributes).map((key) => {
        const { [key]: _removed, ...attributes } = filters.attributes;
        return [key, `${path}${historySearch({ ...filters, attributes })}`];
      }),
    ),
  };

  return (
    <RunHistory
      page={page}
      filters={filters}
      options={options}
      notices={parsed.notices}
      hrefs={hrefs}
      isFirstPage={cursor === null}
      now={page.generatedAt.getTime()}
    />
  );
}

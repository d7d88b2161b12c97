import type { Metadata } from "next";
import { headers } from "next/headers";
import { ComparePicker } from "@/components/compare/compare-picker";
import { CompareUnavailable } from "@/components/compare/compare-unavailable";
import { CompareView } from "@/components/compare/compare-view";
import type { CompareInput } from "@/components/compare/types";
import { MAX_RUNS_PER_SIDE } from "@/server/domain/compare/selector";
import { SIGNIFICANCE_TESTS } from "@/server/domain/stats/verdict";
import type { PageProps, PageUrl } from "@/server/api/page-url";
import { readPageUrl } from "@/server/api/page-url";
import { HydrateClient, fetchPageQuery, trpc, tryPageQuery } from "@/server/api/server";
import { publicBaseUrl } from "@/server/public-url";

export const dynamic = "force-dynamic";

type Props = PageProps<{ project: string }>;

/** The comparison the URL asks for (the selectors as typed: compare.get parses them); null when it names none yet. */
async function readInput({ params, search }: PageUrl<{ project: string }>): Promise<CompareInput | null> {
  const base = search.get("base")?.trim() ?? "";
  const head = search.get("head")?.trim() ?? "";
  if (!base || !head) return null;
  const lastText = search.get("last");
  return {
    project: params.project,
    base,
    head,
    last: lastText && /^\d+$/.test(lastText) ? Math.min(Math.max(Number(lastText), 1), MAX_RUNS_PER_SIDE) : null,
    test: SIGNIFICANCE_TESTS.find((test) => test === search.get("test")) ?? "welch",
    tool: search.get("tool")?.trim().slice(0, 200) || null,
    baseUrl: publicBaseUrl(await headers()),
  };
}

/**
 * The comparison, or why there is none: a selector that does not parse ("invalid"), or one that
 * matches no run ("empty": the project exists, or the layout would have answered 404). The request's
 * QueryClient is shared with generateMetadata, so the comparison is computed once.
 */
async function loadComparison(input: CompareInput) {
  const outcome = await tryPageQuery(trpc.compare.get.queryOptions(input));
  if (outcome.ok) return { ok: true as const, result: outcome.data };
  return { ok: false as const, reason: outcome.reason === "invalid" ? ("invalid" as const) : ("empty" as const), message: outcome.message };
}

export async function generateMetadata(props: Props): Promise<Metadata> {
  const url = await readPageUrl(props);
  const input = await readInput(url);
  if (!input) return { title: `Compare · ${url.params.project}` };
  const title = `${input.base} vs ${input.head} · ${input.project}`;
  const outcome = await loadComparison(input);
  if (!outcome.ok) return { title };
  // Read through a share link, the preview image's link carries its token (compare.get), as a private server checks it there too.
  const image = outcome.result.links.image;
  return {
    title,
    openGraph: { title, description: "Benchtrack before/after comparison", images: [{ url: image, width: 1200, height: 630 }] },
    twitter: { card: "summary_large_image", title, images: [image] },
  };
}

export default async function ComparePage(props: Props) {
  const url = await readPageUrl(props);
  const input = await readInput(url);
  if (!input) {
    const { project } = url.params;
    const choices = await fetchPageQuery(trpc.compare.choices.queryOptions({ project }));
    return (
      <div className="space-y-4">
        <h1 className="text-xl font-semibold">Compare</h1>
        <ComparePicker project={project} labels={choices.labels} branches={choices.branches} tools={choices.tools} />
      </div>
    );
  }

  const outcome = await loadComparison(input);
  const show = url.search.get("show") === "all" ? "all" : "gate";
  // No metric or endpoint in the URL: the comparison's default (its kind's: compare-view.tsx).
  const view = { show, metric: url.search.get("metric"), endpoint: url.search.get("endpoint") } as const;
  return (
    <HydrateClient>
      <h1 className="mb-4 text-xl font-semibold">Compare</h1>
      {outcome.ok ? <CompareView input={input} view={view} /> : <CompareUnavailable reason={outcome.reason} message={outcome.message} />}
    </HydrateClient>
  );
}

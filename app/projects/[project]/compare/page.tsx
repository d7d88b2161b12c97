import { TRPCError } from "@trpc/server";
import type { Metadata } from "next";
import { headers } from "next/headers";
import { ComparePicker } from "@/components/compare/compare-picker";
import { CompareUnavailable } from "@/components/compare/compare-unavailable";
import { CompareView } from "@/components/compare/compare-view";
import type { CompareInput } from "@/components/compare/types";
import { SHARE_PARAM } from "@/server/domain/share";
import { MAX_RUNS_PER_SIDE } from "@/server/domain/compare/selector";
import { AGGREGATE_NAME } from "@/server/domain/run";
import { SIGNIFICANCE_TESTS } from "@/server/domain/stats/verdict";
import { HydrateClient, getQueryClient, trpc } from "@/server/api/server";
import { publicBaseUrl } from "@/server/public-url";

export const dynamic = "force-dynamic";

type Params = Promise<{ project: string }>;
type SearchParams = Promise<Record<string, string | string[] | undefined>>;

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The comparison the URL asks for (the selectors as typed: compare.get parses them); null when it names none yet. */
async function readInput(params: Params, searchParams: SearchParams): Promise<CompareInput | null> {
  const { project } = await params;
  const search = await searchParams;
  const base = first(search.base)?.trim() ?? "";
  const head = first(search.head)?.trim() ?? "";
  if (!base || !head) return null;
  const lastText = first(search.last);
  return {
    project: decodeURIComponent(project),
    base,
    head,
    last: lastText && /^\d+$/.test(lastText) ? Math.min(Math.max(Number(lastText), 1), MAX_RUNS_PER_SIDE) : null,
    test: SIGNIFICANCE_TESTS.find((test) => test === first(search.test)) ?? "welch",
    tool: first(search.tool)?.trim().slice(0, 200) || null,
    baseUrl: publicBaseUrl(await headers()),
  };
}

/**
 * The comparison, or why there is none: a selector that does not parse, or one that matches no run.
 * The request's QueryClient is shared with generateMetadata, so the comparison is computed once.
 */
async function loadComparison(input: CompareInput) {
  try {
    return { ok: true as const, result: await getQueryClient().fetchQuery(trpc.compare.get.queryOptions(input)) };
  } catch (error) {
    if (error instanceof TRPCError && (error.code === "BAD_REQUEST" || error.code === "PAYLOAD_TOO_LARGE")) {
      return { ok: false as const, reason: "invalid" as const, message: error.message };
    }
    // The project exists (the layout answers 404 otherwise): a selector matched no run.
    if (error instanceof TRPCError && error.code === "NOT_FOUND") {
      return { ok: false as const, reason: "empty" as const, message: error.message };
    }
    throw error;
  }
}

export async function generateMetadata({ params, searchParams }: { params: Params; searchParams: SearchParams }): Promise<Metadata> {
  const { project } = await params;
  const input = await readInput(params, searchParams);
  if (!input) return { title: `Compare · ${decodeURIComponent(project)}` };
  const title = `${input.base} vs ${input.head} · ${input.project}`;
  const outcome = await loadComparison(input);
  if (!outcome.ok) return { title };
  // A share link's preview image needs the share token too (a private server checks it there as well).
  const share = (await searchParams)[SHARE_PARAM];
  const image =
    typeof share === "string" ? `${outcome.result.links.image}&${new URLSearchParams({ [SHARE_PARAM]: share })}` : outcome.result.links.image;
  return {
    title,
    openGraph: { title, description: "Benchtrack before/after comparison", images: [{ url: image, width: 1200, height: 630 }] },
    twitter: { card: "summary_large_image", title, images: [image] },
  };
}

export default async function ComparePage({ params, searchParams }: { params: Params; searchParams: SearchParams }) {
  const input = await readInput(params, searchParams);
  if (!input) {
    const project = decodeURIComponent((await params).project);
    const choices = await getQueryClient().fetchQuery(trpc.compare.choices.queryOptions({ project }));
    return (
      <div className="space-y-4">
        <h1 className="text-xl font-semibold">Compare</h1>
        <ComparePicker project={project} labels={choices.labels} branches={choices.branches} tools={choices.tools} />
      </div>
    );
  }

  const outcome = await loadComparison(input);
  const search = await searchParams;
  const show = first(search.show) === "all" ? "all" : "gate";
  const view = { show, metric: first(search.metric) ?? "p95", endpoint: first(search.endpoint) ?? AGGREGATE_NAME } as const;
  return (
    <HydrateClient>
      <h1 className="mb-4 text-xl font-semibold">Compare</h1>
      {outcome.ok ? <CompareView input={input} view={view} /> : <CompareUnavailable reason={outcome.reason} message={outcome.message} />}
    </HydrateClient>
  );
}

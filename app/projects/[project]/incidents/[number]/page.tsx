import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { IncidentView } from "@/components/incidents/incident-view";
import type { PageProps } from "@/server/api/page-url";
import { readPageUrl } from "@/server/api/page-url";
import { HydrateClient, fetchPageQuery, trpc } from "@/server/api/server";
import { incidentNumberSchema } from "@/server/schemas/incidents";

export const dynamic = "force-dynamic";

type Props = PageProps<{ project: string; number: string }>;

/** The number in the URL, or null when it is not one (`/incidents/abc`, `/incidents/0`): the page's 404. */
function incidentNumberOf(text: string): number | null {
  const parsed = incidentNumberSchema.safeParse(text);
  return parsed.success ? parsed.data : null;
}

export async function generateMetadata(props: Props): Promise<Metadata> {
  const { params } = await readPageUrl(props);
  return { title: `Incident #${params.number} · ${params.project}` };
}

// /projects/{p}/incidents/{number} — one incident: its state and what each does to the gate, its note,
// links, regressions and history.
export default async function IncidentPage(props: Props) {
  const { params } = await readPageUrl(props);
  const number = incidentNumberOf(params.number);
  if (number === null) notFound();
  await fetchPageQuery(trpc.incident.get.queryOptions({ project: params.project, number }));
  return (
    <HydrateClient>
      <IncidentView project={params.project} number={number} />
    </HydrateClient>
  );
}

import { parseInboxFilter } from "@/components/incidents/display";
import { IncidentInbox } from "@/components/incidents/incident-inbox";
import type { PageProps } from "@/server/api/page-url";
import { projectPageTitle, readPageUrl } from "@/server/api/page-url";
import { HydrateClient, fetchPageQuery, trpc } from "@/server/api/server";

export const dynamic = "force-dynamic";

type Props = PageProps<{ project: string }>;

export const generateMetadata = projectPageTitle("Incidents");

// /projects/{p}/incidents?state=active|open|investigating|fixed|backed_out|accepted|invalid|all — the
// incidents inbox (an unknown state reads as active: open or investigating), then the improvements.
export default async function IncidentsPage(props: Props) {
  const { params, search } = await readPageUrl(props);
  const filter = parseInboxFilter(search.get("state"));
  await Promise.all([
    fetchPageQuery(trpc.incident.inbox.queryOptions({ project: params.project, state: filter })),
    fetchPageQuery(trpc.change.improvements.queryOptions({ project: params.project })),
    fetchPageQuery(trpc.project.get.queryOptions({ project: params.project })),
  ]);
  return (
    <HydrateClient>
      <IncidentInbox key={filter} project={params.project} filter={filter} />
    </HydrateClient>
  );
}

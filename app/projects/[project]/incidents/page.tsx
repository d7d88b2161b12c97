import { redirect } from "next/navigation";
import type { PageProps } from "@/server/api/page-url";
import { readPageUrl } from "@/server/api/page-url";
import { pagePaths } from "@/server/domain/urls";

// /projects/{p}/incidents — the list of incidents is the inbox (/projects/{p}/regressions), the query kept.
export default async function IncidentsPage(props: PageProps<{ project: string }>) {
  const { params, search } = await readPageUrl(props);
  redirect(pagePaths.regressions(params.project, search));
}

import { permanentRedirect } from "next/navigation";
import type { PageProps } from "@/server/api/page-url";
import { readPageUrl } from "@/server/api/page-url";
import { pagePaths } from "@/server/domain/urls";

// /projects/{p}/regressions — the incidents inbox's older URL: a permanent redirect (308) to
// /projects/{p}/incidents, the query kept (a browser keeps the #regression-<id> of older webhook links).
export default async function RegressionsPage(props: PageProps<{ project: string }>) {
  const { params, search } = await readPageUrl(props);
  permanentRedirect(pagePaths.incidents(params.project, search));
}

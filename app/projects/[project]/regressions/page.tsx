import { INBOX_STATUSES, RegressionInbox } from "@/components/regressions/regression-inbox";
import type { InboxStatus } from "@/components/regressions/regression-inbox";
import type { PageProps } from "@/server/api/page-url";
import { projectPageTitle, readPageUrl } from "@/server/api/page-url";
import { fetchPageQuery, trpc } from "@/server/api/server";

export const dynamic = "force-dynamic";

type Props = PageProps<{ project: string }>;

export const generateMetadata = projectPageTitle("Regressions");

// /projects/{p}/regressions?status=open|acknowledged|dismissed|all — the inbox (an unknown status reads as open).
export default async function RegressionsPage(props: Props) {
  const { params, search } = await readPageUrl(props);
  const status = INBOX_STATUSES.find((value) => value === search.get("status")) ?? "open";
  const inbox = await fetchPageQuery(trpc.regression.inbox.queryOptions({ project: params.project, status: status satisfies InboxStatus }));
  return <RegressionInbox inbox={inbox} />;
}

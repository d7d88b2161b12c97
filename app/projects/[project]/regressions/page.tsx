import type { Metadata } from "next";
import { INBOX_STATUSES, RegressionInbox } from "@/components/regressions/regression-inbox";
import type { InboxStatus } from "@/components/regressions/regression-inbox";
import { fetchPageQuery, trpc } from "@/server/api/server";

export const dynamic = "force-dynamic";

type Props = {
  params: Promise<{ project: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `Regressions · ${decodeURIComponent((await params).project)}` };
}

// /projects/{p}/regressions?status=open|acknowledged|dismissed|all — the inbox (an unknown status reads as open).
export default async function RegressionsPage({ params, searchParams }: Props) {
  const project = decodeURIComponent((await params).project);
  const requested = (await searchParams).status;
  const status = INBOX_STATUSES.find((value) => value === requested) ?? "open";
  const inbox = await fetchPageQuery(trpc.regression.inbox.queryOptions({ project, status: status satisfies InboxStatus }));
  return <RegressionInbox inbox={inbox} />;
}

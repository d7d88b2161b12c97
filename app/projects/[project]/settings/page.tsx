import type { Metadata } from "next";
import { SettingsView } from "@/components/settings/settings-view";
import { HydrateClient, fetchPageQuery, trpc } from "@/server/api/server";

export const dynamic = "force-dynamic";

type Params = Promise<{ project: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  return { title: `Settings · ${decodeURIComponent((await params).project)}` };
}

export default async function SettingsPage({ params }: { params: Params }) {
  const project = decodeURIComponent((await params).project);
  // Prefetched for SettingsView (settings.get is open to readers: the page shows the SLA before unlocking).
  await fetchPageQuery(trpc.settings.get.queryOptions({ project }));
  return (
    <div>
      <h1 className="mb-4 text-xl font-semibold">Settings</h1>
      <HydrateClient>
        <SettingsView project={project} />
      </HydrateClient>
    </div>
  );
}

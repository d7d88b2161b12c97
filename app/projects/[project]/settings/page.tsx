import { AlertPrecisionPanel } from "@/components/settings/alert-precision";
import { DangerZone } from "@/components/settings/danger-zone";
import { SettingsView } from "@/components/settings/settings-view";
import type { PageProps } from "@/server/api/page-url";
import { projectPageTitle, readPageUrl } from "@/server/api/page-url";
import { HydrateClient, fetchPageQuery, trpc } from "@/server/api/server";

export const dynamic = "force-dynamic";

type Props = PageProps<{ project: string }>;

export const generateMetadata = projectPageTitle("Settings");

export default async function SettingsPage(props: Props) {
  const { project } = (await readPageUrl(props)).params;
  // Prefetched for SettingsView (settings.get is open to readers: the page shows the SLA before unlocking)
  // and for the alert precision panel (read-only: shown whether or not the browser may manage the project);
  // access.mine decides which of them the page shows, so it comes with the page.
  await Promise.all([
    fetchPageQuery(trpc.settings.get.queryOptions({ project })),
    fetchPageQuery(trpc.access.mine.queryOptions({ project })),
    fetchPageQuery(trpc.incident.precision.queryOptions({ project })),
  ]);
  return (
    <div>
      <h1 className="mb-4 text-xl font-semibold">Settings</h1>
      <HydrateClient>
        <SettingsView project={project} />
        <div className="mt-5">
          <AlertPrecisionPanel project={project} />
        </div>
        <DangerZone project={project} />
      </HydrateClient>
    </div>
  );
}

"use client";

import { useSuspenseQuery } from "@tanstack/react-query";
import { useProjectAccess } from "@/components/providers/project-access";
import { useTRPC } from "@/components/providers/trpc-provider";
import { Card } from "@/components/ui/card";
import { SESSION_FORM_ACTION, pagePaths } from "@/server/domain/urls";
import { AuditPanel } from "./audit-panel";
import { JobsPanel } from "./jobs-panel";
import { MembersPanel } from "./members-panel";
import { ProjectForm } from "./project-form";
import { RetentionPanel } from "./retention-panel";
import { ShareLinksPanel } from "./share-links-panel";
import { SlaEditor } from "./sla-editor";
import { TokensPanel } from "./tokens-panel";
import { WebhookPanel } from "./webhook-panel";

/**
 * Settings are shown to those who may manage the project (access.mine: its maintainers, server admins, an
 * admin session). The admin token, entered once here (or on /sign-in), signs this browser in for 7 days
 * with an httpOnly cookie; scripts never hold the token. Anyone else sees the current SLA targets. The settings come from settings.get (prefetched by the page).
 */
export function SettingsView({ project }: { project: string }) {
  const trpc = useTRPC();
  const {
    data: { settings, slaTargets: targets },
  } = useSuspenseQuery(trpc.settings.get.queryOptions({ project }));
  const access = useProjectAccess(project);

  // Settings are its maintainers' (the "manage" action: docs/access.md); anyone else sees the SLA targets.
  if (!access.can("manage")) {
    if (!access.isKnown) return null;
    return (
      <div className="space-y-5">
        <Card title="A maintainer of this project, or the admin token, changes its settings">
          <form method="post" action={SESSION_FORM_ACTION} className="flex flex-wrap items-end gap-2">
            <input type="hidden" name="next" value={pagePaths.settings(project)} />
            <label className="flex flex-col gap-1 text-sm">
              Admin token (BENCHTRACK_ADMIN_TOKEN)
              <input
                type="password"
                name="token"
                required
                autoComplete="current-password"
                className="border-border bg-surface w-72 rounded border px-2 py-1"
                data-testid="admin-token-input"
              />
            </label>
            <button type="submit" className="bg-accent text-accent-text rounded-md px-3 py-1.5 text-sm font-medium">
              Unlock settings
            </button>
          </form>
          <p className="text-text-muted mt-2 text-xs">
            Signs this browser in as admin for 7 days (an httpOnly cookie; sign out from the header). Current SLA
            targets:{" "}
            {targets.length === 0
              ? "none"
              : targets
                  .map(
                    (target) =>
                      `${target.metric} ${target.op} ${target.threshold}${target.unit ? ` ${target.unit}` : ""}`,
                  )
                  .join(", ")}
            .
          </p>
        </Card>
        {/* Members and roles: managed here by a maintainer; anyone else reads what the visibility means. */}
        <Card title="Members and roles" id="members">
          <MembersPanel project={project} />
        </Card>
      </div>
    );
  }

  return (
    <div className="space-y-5">
      <Card title="SLA policy">
        <SlaEditor project={project} initial={targets} />
      </Card>
      <Card title="Project and regression settings">
        <ProjectForm project={project} initial={settings} />
      </Card>
      <Card title="Members and roles" id="members">
        <MembersPanel project={project} />
      </Card>
      <Card title="Tokens" id="tokens">
        <TokensPanel project={project} />
      </Card>
      <Card title="Share links" id="share-links">
        <ShareLinksPanel project={project} />
      </Card>
      <Card title="Webhook notifications" id="webhook">
        <WebhookPanel project={project} />
      </Card>
      <Card title="Background jobs">
        <JobsPanel project={project} />
      </Card>
      <Card title="Run retention" id="retention">
        <RetentionPanel project={project} initial={settings} />
      </Card>
      <Card title="Audit log" id="audit">
        <AuditPanel project={project} />
      </Card>
    </div>
  );
}

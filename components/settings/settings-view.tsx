"use client";

import { useSuspenseQuery } from "@tanstack/react-query";
import { useIsAdmin } from "@/components/providers/session-provider";
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
 * Settings need an admin session: the admin token, entered once here (or on /sign-in), signs this
 * browser in for 7 days with an httpOnly cookie; scripts never hold the token. Until then the page
 * shows the current SLA targets. The settings come from settings.get (prefetched by the page).
 */
export function SettingsView({ project }: { project: string }) {
  const trpc = useTRPC();
  const {
    data: { settings, slaTargets: targets },
  } = useSuspenseQuery(trpc.settings.get.queryOptions({ project }));
  const isAdmin = useIsAdmin();

  if (!isAdmin) {
    return (
      <div className="space-y-5">
        <Card title="Admin token required">
          <form method="post" action={SESSION_FORM_ACTION} className="flex flex-wrap items-end gap-2">
            <input type="hidden" name="next" value={pagePaths.settings(project)} />
            <label className="flex flex-col gap-1 text-sm">
              Admin token (BENCHTRACK_ADMIN_TOKEN)
              <input
                type="password"
                name="token"
                required
                autoComplete="current-password"
                className="w-72 rounded border border-border bg-surface px-2 py-1"
                data-testid="admin-token-input"
              />
            </label>
            <button type="submit" className="rounded-md bg-accent px-3 py-1.5 text-sm font-medium text-accent-text">
              Unlock settings
            </button>
          </form>
          <p className="mt-2 text-xs text-text-muted">
            Signs this browser in as admin for 7 days (an httpOnly cookie; sign out from the header). Current SLA targets:{" "}
            {targets.length === 0 ? "none" : targets.map((target) => `${target.metric} ${target.op} ${target.threshold}${target.unit ? ` ${target.unit}` : ""}`).join(", ")}.
          </p>
        </Card>
        {/* Members and roles: managed here by a maintainer signed in with the identity provider; anyone else reads what the visibility means. */}
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
      <Card title="Upload tokens">
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

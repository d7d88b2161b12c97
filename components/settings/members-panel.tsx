"use client";

import { useMutation, useQuery, useQueryClient, useSuspenseQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/components/providers/trpc-provider";
import { Badge } from "@/components/ui/badge";
import { Table, Td, Th } from "@/components/ui/table";
import type { RouterOutputs } from "@/server/api/root";
import { VISIBILITY_WORDS, roleLegend } from "@/server/domain/access/role-legend";
import type { GrantKind, ProjectRole, ProjectVisibility } from "@/server/domain/access/roles";
import { PROJECT_ROLES } from "@/server/domain/access/roles";
import { Problem } from "./problem";

type Member = RouterOutputs["member"]["list"]["members"][number];

/** The visibility select's values: the stored setting, "default" for null (the server's default). */
type VisibilityChoice = ProjectVisibility | "default";

/** "matches 3 people", with whom on hover; a grant nobody signed in matches yet says so. */
function MatchSummary({ member }: { member: Member }) {
  if (member.matchCount === 0) return <span className="text-text-muted">matches nobody who has signed in yet</span>;
  const names = member.matches.map((person) => person.name ?? person.email ?? person.id);
  const more = member.matchCount - names.length;
  return (
    <span title={`${names.join(", ")}${more > 0 ? ` and ${more} more` : ""}`}>
      matches {member.matchCount} {member.matchCount === 1 ? "person" : "people"}
      {member.kind === "group" && names.length > 0 && (
        <span className="text-text-muted">
          : {names.slice(0, 3).join(", ")}
          {member.matchCount > 3 ? ", …" : ""}
        </span>
      )}
    </span>
  );
}

/** What each role may do, from the rules themselves (server/domain/access/roles.ts). */
function RoleLegend() {
  return (
    <dl className="grid gap-x-3 gap-y-1 text-xs sm:grid-cols-[auto_1fr]" data-testid="role-legend">
      {roleLegend().map(({ role, may }) => (
        <div key={role} className="contents">
          <dt className="font-medium">{role}</dt>
          <dd className="text-text-muted">may {may.join(", ")}</dd>
        </div>
      ))}
      <dt className="font-medium">server admin</dt>
      <dd className="text-text-muted">may do everything in every project, and manage the server&apos;s people</dd>
    </dl>
  );
}

/** The project's visibility: what it is set to, what applies, and what that means. */
function VisibilityLine({ setting, effective }: { setting: ProjectVisibility | null; effective: ProjectVisibility }) {
  return (
    <p className="text-sm" data-testid="visibility-meaning">
      <span className="font-medium">{effective === "public" ? "Public" : "Private"}</span>
      {setting === null && <span className="text-text-muted"> (the server&apos;s default)</span>}:{" "}
      {VISIBILITY_WORDS[effective]}
    </p>
  );
}

/**
 * Settings → Members and roles: the project's grants (a role for an email or an identity-provider group,
 * each with the people it matches now), adding one, changing a role, removing one, and the project's
 * visibility. For those who may manage the project (its maintainers, server admins); anyone else reads
 * what the visibility means and what each role may do.
 */

/** The role select's options, one per role in PROJECT_ROLES' order. */
const ROLE_OPTIONS = PROJECT_ROLES.map((name) => (
  <option key={name} value={name}>
    {name}
  </option>
));

export function MembersPanel({ project }: { project: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const {
    data: { settings },
  } = useSuspenseQuery(trpc.settings.get.queryOptions({ project }));
  // Never cached across sessions, and a refusal (not a maintainer) is final.
  const members = useQuery(trpc.member.list.queryOptions({ project }, { staleTime: 0, gcTime: 0, retry: false }));
  const reload = () =>
    Promise.all([
      queryClient.invalidateQueries(trpc.member.list.queryFilter({ project })),
      queryClient.invalidateQueries(trpc.settings.get.queryFilter({ project })),
      queryClient.invalidateQueries(trpc.settings.audit.queryFilter({ project })),
    ]);
  const grant = useMutation(trpc.member.grant.mutationOptions({ onSuccess: reload }));
  const update = useMutation(trpc.member.update.mutationOptions({ onSuccess: reload }));
  const remove = useMutation(trpc.member.remove.mutationOptions({ onSuccess: reload }));
  const setVisibility = useMutation(trpc.member.setVisibility.mutationOptions({ onSuccess: reload }));
  const [kind, setKind] = useState<GrantKind>("email");
  const [subject, setSubject] = useState("");
  const [role, setRole] = useState<ProjectRole>("viewer");

  const refused =
    members.error !== null && (members.error.data?.code === "FORBIDDEN" || members.error.data?.code === "UNAUTHORIZED");
  if (refused || (members.isPending && !members.data)) {
    return (
      <div className="space-y-3" data-testid="members-panel">
        <VisibilityLine setting={settings.visibility} effective={settings.effectiveVisibility} />
        {refused && (
          <p className="text-text-muted text-sm">
            Only the maintainers of {project} and server admins see and change its members and visibility.
          </p>
        )}
        <RoleLegend />
      </div>
    );
  }

  const problem = grant.error ?? update.error ?? remove.error ?? setVisibility.error ?? members.error;
  const visibility = members.data?.visibility;
  const busy = grant.isPending || update.isPending || remove.isPending || setVisibility.isPending;

  return (
    <div className="space-y-4" data-testid="members-panel">
      {problem && <Problem error={problem} />}
      {visibility && (
        <div className="space-y-1.5">
          <label className="flex flex-wrap items-center gap-2 text-sm">
            <span className="font-medium">Visibility</span>
            <select
              value={visibility.setting ?? "default"}
              disabled={busy}
              onChange={(event) => {
                const choice = event.target.value as VisibilityChoice;
                setVisibility.mutate({ project, visibility: choice === "default" ? null : choice });
              }}
              className="border-border bg-surface rounded border px-2 py-1 text-sm"
              data-testid="visibility-select"
            >
              <option value="default">Server default ({visibility.serverDefault})</option>
              <option value="public">Public</option>
              <option value="private">Private</option>
            </select>
          </label>
          <VisibilityLine setting={visibility.setting} effective={visibility.effective} />
        </div>
      )}

      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          grant.mutate({ project, grant: { kind, subject, role } }, { onSuccess: () => setSubject("") });
        }}
      >
        <label className="flex flex-col text-xs">
          grant to
          <select
            value={kind}
            onChange={(event) => setKind(event.target.value as GrantKind)}
            className="border-border bg-surface rounded border px-2 py-1 text-sm"
            data-testid="grant-kind"
          >
            <option value="email">Email</option>
            <option value="group">Group</option>
          </select>
        </label>
        <label className="flex min-w-56 flex-1 flex-col text-xs">
          {kind === "email" ? "email" : "group, as the identity provider spells it"}
          <input
            value={subject}
            onChange={(event) => setSubject(event.target.value)}
            type={kind === "email" ? "email" : "text"}
            required
            maxLength={kind === "email" ? 320 : 200}
            placeholder={kind === "email" ? "ada@example.com" : "perf-team"}
            className="border-border bg-surface rounded border px-2 py-1 text-sm"
            data-testid="grant-subject"
          />
        </label>
        <label className="flex flex-col text-xs">
          role
          <select
            value={role}
            onChange={(event) => setRole(event.target.value as ProjectRole)}
            className="border-border bg-surface rounded border px-2 py-1 text-sm"
            data-testid="grant-role"
          >
            {ROLE_OPTIONS}
          </select>
        </label>
        <button
          type="submit"
          disabled={busy}
          className="bg-accent text-accent-text rounded-md px-3 py-1.5 text-sm font-medium disabled:opacity-60"
          data-testid="grant-submit"
        >
          Grant
        </button>
      </form>

      {members.data && members.data.members.length === 0 && (
        <p className="text-text-muted text-sm">
          No grants yet: only server admins
          {visibility?.effective === "public" ? ", and signed-in people with the server's default role," : ""} have a
          role here.
        </p>
      )}
      {members.data && members.data.members.length > 0 && (
        <Table label="Members and roles" stacked>
          <thead>
            <tr>
              <Th>Who</Th>
              <Th>Role</Th>
              <Th>Matches now</Th>
              <Th>Granted by</Th>
              <Th>
                <span className="sr-only">Remove</span>
              </Th>
            </tr>
          </thead>
          <tbody>
            {members.data.members.map((member) => (
              <tr key={member.id} data-testid="member-row">
                <Td label="Who" wrap>
                  <Badge tone={member.kind === "group" ? "accent" : "neutral"}>{member.kind}</Badge>{" "}
                  <span className="[overflow-wrap:anywhere]">{member.subject}</span>
                </Td>
                <Td label="Role">
                  <select
                    aria-label={`Role of ${member.subject}`}
                    value={member.role}
                    disabled={busy}
                    onChange={(event) =>
                      update.mutate({ project, id: member.id, role: event.target.value as ProjectRole })
                    }
                    className="border-border bg-surface rounded border px-2 py-0.5 text-sm"
                    data-testid="member-role"
                  >
                    {ROLE_OPTIONS}
                  </select>
                </Td>
                <Td label="Matches now" wrap className="text-xs">
                  <MatchSummary member={member} />
                </Td>
                <Td label="Granted by" wrap className="text-text-muted text-xs">
                  {member.grantedBy}, {member.updatedAt.slice(0, 10)}
                </Td>
                <Td className="text-right">
                  <button
                    type="button"
                    disabled={busy}
                    onClick={() => remove.mutate({ project, id: member.id })}
                    className="border-border hover:text-bad rounded border px-2 py-0.5 text-xs disabled:opacity-60"
                    aria-label={`Remove ${member.subject}`}
                  >
                    Remove
                  </button>
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      <RoleLegend />
      <p className="text-text-muted text-xs">
        A person&apos;s role is the highest of the grants that match their email or one of their groups (as of their
        last sign-in). Removing every maintainer is allowed: server admins may always manage the project.
      </p>
    </div>
  );
}

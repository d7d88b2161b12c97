/**
 * The audit log's closed list of actions, `<object>.<verb>`: the one place they are spelled. The wire
 * schema (server/schemas/audit.ts) and the `AuditAction` type derive from it, so a writer cannot record
 * an action a reader does not know, and the Settings filter lists exactly these.
 */
export const AUDIT_ACTIONS = [
  "settings.update",
  "sla.update",
  "retention.update",
  "token.create",
  "token.revoke",
  "webhook.update",
  "webhook.rotate",
  "share.create",
  "share.revoke",
  "incident.update",
  "change.update",
  "annotation.create",
  "annotation.delete",
  "pin.set",
  "pin.clear",
  "project.create",
  "project.import",
  "project.delete",
  "project.visibility",
  "history.import",
  "run.delete",
  "retention.delete",
  "member.grant",
  "member.update",
  "member.remove",
  "user.update",
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** What each action is, in words (the Settings filter and the entry's headline). */
export const AUDIT_ACTION_WORDS: Record<AuditAction, string> = {
  "settings.update": "changed settings",
  "sla.update": "changed the SLA policy",
  "retention.update": "changed run retention",
  "token.create": "created a token",
  "token.revoke": "revoked a token",
  "webhook.update": "changed the webhook",
  "webhook.rotate": "rotated the webhook secret",
  "share.create": "made a share link",
  "share.revoke": "revoked a share link",
  "incident.update": "changed an incident",
  "change.update": "changed a regression",
  "annotation.create": "added an annotation",
  "annotation.delete": "deleted an annotation",
  "pin.set": "pinned a baseline",
  "pin.clear": "cleared a baseline pin",
  "project.create": "created the project",
  "project.import": "imported a project export",
  "project.delete": "deleted the project",
  "project.visibility": "changed visibility",
  "history.import": "imported history",
  "run.delete": "deleted a run",
  "retention.delete": "retention deleted runs",
  "member.grant": "granted a role",
  "member.update": "changed a role",
  "member.remove": "removed a role",
  "user.update": "changed a user",
};

/** A field's value before and after a change. */
export interface FieldChange {
  from: unknown;
  to: unknown;
}

/**
 * The fields of `changes` whose value differs from `before` (compared as JSON, so arrays and objects
 * compare by content): `{ from: { field: old }, to: { field: new } }`, or null when nothing changed.
 * Fields `changes` leaves out (undefined) are not changes.
 */
export function changedFields(before: Record<string, unknown>, changes: Record<string, unknown>): { from: Record<string, unknown>; to: Record<string, unknown> } | null {
  const from: Record<string, unknown> = {};
  const to: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(changes)) {
    if (value === undefined) continue;
    const old = before[field] ?? null;
    if (JSON.stringify(old) === JSON.stringify(value)) continue;
    from[field] = old;
    to[field] = value;
  }
  return Object.keys(to).length === 0 ? null : { from, to };
}

/**
 * Audit: the audit log (audit_entries), who did what and when, in words that are never a secret.
 *
 * The module's public face: code outside server/services/audit/ imports from here, never from its files
 * (eslint.config.js holds that line and which modules this one may use).
 */
export { RETENTION_ACTOR, actorOf, describePerson, listAuditEntries, listServerAuditEntries, recordAudit } from "./audit";
export type { AuditActor, AuditQuery, AuditRecord } from "./audit";

import { findIncidentOfStep, isBackAtLevel } from "../../domain/incidents/grouping";
import { ACTIVE_STATES, isClosedState, changeStatusOf, type IncidentState } from "../../domain/incidents/state";
import type { Prisma, PrismaClient } from "../../generated/prisma/client";
import { requireProjectAccess, type Principal, type ProjectRef } from "../access";
import { notFound } from "../platform";
import { jobQueueFor } from "../platform";
import { requireProject } from "../projects";
import { queueIncidentNotifications } from "../notifications";
import type { AuditActor } from "../audit";
import { actorOf, recordAudit } from "../audit";
import { INCIDENT_SELECT, viewsOf } from "./incident-views";

/**
 * Incidents (docs/incidents.md): the regressions one step opened at one run, stored as one thing a team
 * triages — a state, a note, links, who changed it and when, and its history. Detection opens and fills
 * them (attachToIncidents, in the detection's transaction); people move them through their states
 * (updateIncidents, one or many at once), and each regression follows its incident's state, which is what
 * the CI gate's baseline reads (domain/incidents/state.ts). Reading them (the inbox, one incident, alert
 * precision, the REST shape) is incident-views.ts.
 */

export interface IncidentChange {
  state?: IncidentState;
  /** The note (replaces the last one); null clears it. */
  note?: string | null;
  /** The links (replace the list). */
  links?: string[];
}

export interface IncidentUpdate {
  incident: { id: string; number: number; projectId: string };
  /** The state before and after; equal when only its note or links changed. */
  from: IncidentState;
  to: IncidentState;
}

/**
 * Changes incidents of a project (one, or many at once: bulk triage), in one transaction: each incident's
 * state, note and links, each of its regressions' status (what the gate reads), and an event in its history
 * saying who did it: the principal ("admin session", "project token ci"), with the name the caller gave.
 * Each change of state is told to the project's webhook (one "incident.state_changed" message per
 * incident, queued in the same transaction: webhooks.ts). All or nothing: an unknown number refuses the
 * whole change. Returns what changed, in the order given. `notify.baseUrl` is the public URL its
 * messages link to.
 */
export async function updateIncidents(
  db: PrismaClient,
  principal: Principal,
  projectSlug: string,
  numbers: readonly number[],
  change: IncidentChange,
  actor: { viaSession: boolean; name?: string | undefined },
  notify: { baseUrl: string },
) {
  const project = await requireProject(db, projectSlug);
  const by = await requireTriager(db, principal, project, actor);
  const auditActor = actorOf(principal, actor);
  const unique = [...new Set(numbers)];
  const queue = await jobQueueFor(db);
  const updates = await db.$transaction(async (tx) => {
    // Detection attaches regressions under the same lock: a regression never joins an incident being decided.
    await lockProjectIncidents(tx, project.id);
    const rows = await tx.incident.findMany({
      where: { projectId: project.id, number: { in: unique } },
      select: { id: true, number: true, projectId: true, state: true, note: true, links: true },
    });
    const missing = unique.filter((number) => !rows.some((row) => row.number === number));
    if (missing.length > 0) {
      throw notFound(
        `Incident${missing.length > 1 ? "s" : ""} ${missing.map((number) => `#${number}`).join(", ")} of project "${projectSlug}"`,
        missing.map((number) => ({ path: "numbers", message: `no incident #${number}` })),
      );
    }
    const now = new Date();
    const done: IncidentUpdate[] = [];
    for (const number of unique) {
      const row = rows.find((candidate) => candidate.number === number)!;
      const to = change.state ?? row.state;
      const stateChanged = to !== row.state;
      const noteChanged = change.note !== undefined && change.note !== row.note;
      const linksChanged = change.links !== undefined && JSON.stringify(change.links) !== JSON.stringify(row.links);
      if (!stateChanged && !noteChanged && !linksChanged) {
        done.push({ incident: row, from: row.state, to });
        continue;
      }
      await tx.incident.update({
        where: { id: row.id },
        data: {
          ...(stateChanged && {
            state: to,
            stateChangedAt: now,
            stateChangedBy: by,
            closedAt: isClosedState(to) ? now : null,
          }),
          ...(noteChanged && { note: change.note }),
          ...(linksChanged && { links: change.links }),
        },
        select: { id: true },
      });
      // Only where the gate's reading changes (open → investigating leaves a per-regression override alone).
      if (stateChanged && changeStatusOf(to) !== changeStatusOf(row.state)) {
        await tx.change.updateMany({
          where: { incidentId: row.id },
          data: { status: changeStatusOf(to), statusChangedAt: now, statusChangedBy: by },
        });
      }
      await tx.incidentEvent.create({
        data: {
          incidentId: row.id,
          at: now,
          by,
          ...(stateChanged && { fromState: row.state, toState: to }),
          note: [
            noteChanged ? (change.note ? `Note: ${change.note}` : "Note cleared") : null,
            linksChanged ? `Links: ${change.links!.join(" ") || "none"}` : null,
          ]
            .filter((part) => part !== null)
            .join("\n") || null,
        },
        select: { id: true },
      });
      await recordAudit(tx, {
        ...auditActor,
        action: "incident.update",
        projectSlug: project.slug,
        targetId: row.id,
        detail: incidentChangeDetail(row, { state: stateChanged ? to : undefined, note: noteChanged ? change.note : undefined, links: linksChanged ? change.links : undefined }, by, auditActor),
      });
      done.push({ incident: row, from: row.state, to });
    }
    // The message exists exactly when the change does: queued in its transaction.
    await queueIncidentNotifications(
      tx,
      queue,
      project.id,
      done
        .filter((update) => update.from !== update.to)
        .map((update) => ({
          incidentId: update.incident.id,
          event: "incident.state_changed" as const,
          change: { from: update.from, to: update.to, by, at: now },
        })),
      notify.baseUrl,
    );
    return done;
  }, { timeout: 30_000, maxWait: 30_000 });
  const rows = await db.incident.findMany({ where: { id: { in: updates.map((update) => update.incident.id) } }, select: INCIDENT_SELECT });
  const views = await viewsOf(db, project, rows);
  return {
    project,
    updates,
    incidents: unique.map((number) => views.find((view) => view.number === number)!),
  };
}

/** An incident's audit detail: its number, what changed (from → to), and the name the caller gave when it is more than the actor. */
function incidentChangeDetail(
  row: { number: number; state: string; note: string | null; links: string[] },
  changed: { state?: string | undefined; note?: string | null | undefined; links?: string[] | undefined },
  by: string,
  actor: AuditActor,
) {
  const from: Record<string, unknown> = {};
  const to: Record<string, unknown> = {};
  for (const field of ["state", "note", "links"] as const) {
    if (changed[field] === undefined) continue;
    from[field] = row[field];
    to[field] = changed[field];
  }
  return { number: row.number, from, to, ...(by !== actor.actor && { by }) };
}

/** The project-wide lock under which incidents are opened, joined and decided. */
async function lockProjectIncidents(tx: Prisma.TransactionClient, projectId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`incidents:${projectId}`}, 0))`;
}

/**
 * After detection recorded new regressions (in its transaction, holding the series' lock): each joins the
 * active incident of its step (domain/incidents/grouping.ts) or opens one. Numbers are given under a
 * project-wide lock, so two series detected at once never take the same number. Returns the incidents
 * opened, oldest first.
 */
export async function attachToIncidents(
  tx: Prisma.TransactionClient,
  projectId: string,
  regressions: readonly { id: string; firstRunId: string; seriesRunIds: readonly string[]; detectorVersion: number }[],
): Promise<{ opened: string[]; joined: string[] }> {
  const opened: string[] = [];
  const joined: string[] = [];
  if (regressions.length === 0) return { opened, joined };
  await lockProjectIncidents(tx, projectId);
  const active = await tx.incident.findMany({
    where: { projectId, state: { in: [...ACTIVE_STATES] }, firstRunId: { in: [...new Set(regressions.flatMap((row) => row.seriesRunIds))] } },
    select: { id: true, firstRunId: true },
  });
  // Earliest first, so an incident opens at its step's first run; one that a regression earlier in its
  // series joins moves back to that run.
  const ordered = [...regressions].sort((a, b) => a.seriesRunIds.indexOf(a.firstRunId) - b.seriesRunIds.indexOf(b.firstRunId));
  for (const regression of ordered) {
    let incident = findIncidentOfStep(active, regression.firstRunId, regression.seriesRunIds);
    if (incident !== null && regression.seriesRunIds.indexOf(regression.firstRunId) < regression.seriesRunIds.indexOf(incident.firstRunId)) {
      await tx.incident.update({ where: { id: incident.id }, data: { firstRunId: regression.firstRunId }, select: { id: true } });
      incident.firstRunId = regression.firstRunId;
    }
    if (incident === null) {
      const last = await tx.incident.aggregate({ where: { projectId }, _max: { number: true } });
      const created = await tx.incident.create({
        data: { projectId, number: (last._max.number ?? 0) + 1, firstRunId: regression.firstRunId, detectorVersion: regression.detectorVersion },
        select: { id: true, firstRunId: true },
      });
      await tx.incidentEvent.create({ data: { incidentId: created.id, by: "detector", toState: "open" }, select: { id: true } });
      active.push(created);
      opened.push(created.id);
      incident = created;
    } else if (!opened.includes(incident.id) && !joined.includes(incident.id)) {
      joined.push(incident.id);
    }
    await tx.change.update({ where: { id: regression.id }, data: { incidentId: incident.id }, select: { id: true } });
  }
  return { opened, joined };
}

/**
 * After detection recorded improvements: an improvement of a series that an earlier regression stepped up
 * to the level before the step (within the project's minimum effect) means the series came back. The regression remembers the run it came back at (the latest regression of
 * the series before the improvement that has not come back yet), and its incident's page says so.
 */
export async function markReturns(
  tx: Prisma.TransactionClient,
  projectId: string,
  improvements: readonly { endpointId: number | null; metric: string; firstRunId: string; afterValue: number; seriesRunIds: readonly string[] }[],
): Promise<number> {
  let marked = 0;
  if (improvements.length === 0) return marked;
  const { minEffectPct } = await tx.project.findUniqueOrThrow({ where: { id: projectId }, select: { minEffectPct: true } });
  for (const improvement of improvements) {
    const at = improvement.seriesRunIds.indexOf(improvement.firstRunId);
    const earlier = improvement.seriesRunIds.slice(0, at);
    if (earlier.length === 0) continue;
    const candidates = await tx.change.findMany({
      where: { projectId, kind: "regression", endpointId: improvement.endpointId, metric: improvement.metric, returnRunId: null, firstRunId: { in: earlier } },
      select: { id: true, firstRunId: true, beforeValue: true, afterValue: true },
    });
    const latest = candidates.sort((a, b) => earlier.indexOf(b.firstRunId) - earlier.indexOf(a.firstRunId))[0];
    // Back only when the new level is the old one (within the minimum effect), not a partial undo.
    if (!latest || !isBackAtLevel(latest, improvement.afterValue, minEffectPct)) continue;
    await tx.change.update({ where: { id: latest.id }, data: { returnRunId: improvement.firstRunId }, select: { id: true } });
    marked += 1;
  }
  return marked;
}

/**
 * Triaging a project's incidents: the admin (token or session) or a token of that project. Returns who,
 * in words kept on the incident: a signed-in person as the audit log names them ("Ada <ada@example.com>");
 * a token or the admin with the name the caller gave, if any ("alice (admin session)").
 */
export async function requireTriager(
  db: PrismaClient,
  principal: Principal,
  project: ProjectRef,
  { viaSession, name }: { viaSession: boolean; name?: string | undefined },
): Promise<string> {
  await requireProjectAccess(db, principal, project, "triage");
  const who = actorOf(principal, { viaSession }).actor;
  // A person is who they signed in as; a name given is for shared credentials (a token, the admin's).
  const trimmed = principal.kind === "user" ? undefined : name?.trim();
  return trimmed ? `${trimmed} (${who})` : who;
}

import { describe, expect, it } from "vitest";
import { createCaller } from "../../api/root";
import type { PrismaClient } from "../../generated/prisma/client";
import { testDatabaseTargets, uniqueSlug } from "../../testing/databases";
import { adminCaller, callerWith, createNightlyRuns, seedProjectWithToken, useRouterDatabase } from "../../testing/trpc-callers";
import { sealSession } from "../access";
import { setChangeStatus } from "../changes";
import { importProject, prepareProjectExport } from "../transfer";
import { listAuditEntries, listServerAuditEntries } from "./audit";

// Webhook URLs on this machine are refused unless allowed (webhook-targets.ts); the environment is read once per file.
process.env.BENCHTRACK_WEBHOOK_ALLOWED_HOSTS = "127.0.0.1";

const ADA = { name: "Ada Lovelace", email: "ada@example.com" };
const ADA_WORDS = "Ada Lovelace <ada@example.com>";

/** A users row, and a tRPC caller signed in as that person (a sealed user session, as the sign-in leaves it). */
async function signedIn(db: PrismaClient, person: { name: string | null; email: string | null; serverAdmin?: boolean }) {
  const user = await db.user.create({
    data: { issuer: "https://idp.test", subject: uniqueSlug("sub"), email: person.email, name: person.name, serverAdmin: person.serverAdmin ?? false },
    select: { id: true },
  });
  const session = await sealSession({ role: "user", userId: user.id });
  return { userId: user.id, caller: createCaller({ db, authorization: null, session }) };
}

async function entriesOf(db: PrismaClient, slug: string, action?: string) {
  const rows = await db.auditEntry.findMany({ where: { projectSlug: slug, ...(action && { action }) }, orderBy: [{ at: "asc" }, { id: "asc" }] });
  return rows.map((row) => ({ actor: row.actor, actorUserId: row.actorUserId, action: row.action, targetId: row.targetId, detail: row.detail as Record<string, unknown> }));
}

describe.each(testDatabaseTargets())("the audit trail on $name", ({ target }) => {
  const database = useRouterDatabase(target);
  const db = () => database().prisma;

  it("names a signed-in person, keeps their id, and records only the fields that changed", async () => {
    const { slug, uploadToken } = await seedProjectWithToken(db(), "audit-settings");
    const ada = await signedIn(db(), { ...ADA, serverAdmin: true });
    await ada.caller.settings.update({ project: slug, name: slug, defaultBranch: "trunk", description: "Listings API", retentionDays: 90 });
    const entries = await entriesOf(db(), slug);
    expect(entries).toEqual([
      {
        actor: ADA_WORDS,
        actorUserId: ada.userId,
        action: "settings.update",
        targetId: expect.any(String),
        detail: { from: { defaultBranch: "main", description: null }, to: { defaultBranch: "trunk", description: "Listings API" } },
      },
      { actor: ADA_WORDS, actorUserId: ada.userId, action: "retention.update", targetId: expect.any(String), detail: { from: { retentionDays: null }, to: { retentionDays: 90 } } },
    ]);

    // Nothing changed, a refused value, a refused caller: no entry.
    await ada.caller.settings.update({ project: slug, defaultBranch: "trunk" });
    await expect(ada.caller.settings.update({ project: slug, alpha: 2 })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(callerWith(db(), uploadToken).settings.update({ project: slug, name: "Hijacked" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(await entriesOf(db(), slug)).toHaveLength(2);
  });

  it("says which admin: the token, or a browser signed in with it; a person without a name by email, without either by id", async () => {
    const { slug } = await seedProjectWithToken(db(), "audit-admin");
    await adminCaller(db()).settings.update({ project: slug, minEffectPct: 3 });
    await createCaller({ db: db(), authorization: null, session: await sealSession("admin") }).settings.update({ project: slug, minEffectPct: 4 });
    const noName = await signedIn(db(), { name: null, email: "bo@example.com", serverAdmin: true });
    await noName.caller.settings.update({ project: slug, minEffectPct: 6 });
    const nobody = await signedIn(db(), { name: null, email: null, serverAdmin: true });
    await nobody.caller.settings.update({ project: slug, minEffectPct: 7 });
    expect((await entriesOf(db(), slug)).map((entry) => entry.actor)).toEqual(["admin token", "admin session", "bo@example.com", `user ${nobody.userId}`]);
  });

  it("records SLA changes whole, and nothing when the policy is saved unchanged", async () => {
    const { slug } = await seedProjectWithToken(db(), "audit-sla");
    const ada = await signedIn(db(), { ...ADA, serverAdmin: true });
    const targets = [{ metric: "p95" as const, op: "<=" as const, threshold: 50, unit: "ms" }];
    await ada.caller.settings.setSlaPolicy({ project: slug, targets });
    await ada.caller.settings.setSlaPolicy({ project: slug, targets });
    await ada.caller.settings.setSlaPolicy({ project: slug, targets: [] });
    const entries = await entriesOf(db(), slug, "sla.update");
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({ actor: ADA_WORDS, detail: { from: { targets: [] }, to: { targets: [{ metric: "p95", threshold: 50 }] } } });
    expect(entries[1]).toMatchObject({ detail: { from: { targets: [{ metric: "p95" }] }, to: { targets: [] } } });
  });

  it("records tokens made and revoked by name, prefix and scopes, never their secret", async () => {
    const { slug } = await seedProjectWithToken(db(), "audit-tokens");
    const ada = await signedIn(db(), { ...ADA, serverAdmin: true });
    const made = await ada.caller.token.create({ project: slug, name: "deploy" });
    await ada.caller.token.revoke({ project: slug, id: made.id });
    await ada.caller.token.revoke({ project: slug, id: made.id }); // again: nothing changes
    await expect(ada.caller.token.revoke({ project: slug, id: "cnotatoken000000000000000" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    const entries = await entriesOf(db(), slug);
    expect(entries).toEqual([
      { actor: ADA_WORDS, actorUserId: ada.userId, action: "token.create", targetId: made.id, detail: { name: "deploy", prefix: made.prefix, scopes: ["upload"], expiresAt: null } },
      { actor: ADA_WORDS, actorUserId: ada.userId, action: "token.revoke", targetId: made.id, detail: { name: "deploy", prefix: made.prefix } },
    ]);
    expect(JSON.stringify(entries)).not.toContain(made.token);
  });

  it("names a project token by its name, and records the webhook by origin with its secret only as rotated", async () => {
    const { slug, uploadToken } = await seedProjectWithToken(db(), "audit-webhook", ["upload", "read"]);
    const admin = adminCaller(db());
    const set = await admin.webhook.update({ project: slug, url: "http://127.0.0.1:9/hooks/T000/B000/s3cr3tpath", format: "slack" });
    const rotated = await admin.webhook.rotateSecret({ project: slug });
    await admin.webhook.update({ project: slug, digest: "daily" });
    await expect(admin.webhook.update({ project: slug, url: "http://10.1.2.3/hook" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    const entries = await entriesOf(db(), slug);
    expect(entries.map((entry) => [entry.action, entry.detail])).toEqual([
      ["webhook.update", { from: { url: null, format: "json" }, to: { url: "http://127.0.0.1:9/…", format: "slack" }, secret: "made" }],
      ["webhook.rotate", { secret: "rotated" }],
      ["webhook.update", { from: { digest: "off" }, to: { digest: "daily" } }],
    ]);
    const json = JSON.stringify(entries);
    for (const secret of [set.secret!, rotated.secret!, "s3cr3tpath"]) expect(json).not.toContain(secret);

    // A project token's words come from the principal: its name, no id, never its secret.
    const [runId] = await createNightlyRuns(db(), (await db().project.findUniqueOrThrow({ where: { slug } })).id, 1);
    await callerWith(db(), uploadToken).share.create({ project: slug, link: { run: runId!, expiresInDays: 7 } });
    const [shared] = await entriesOf(db(), slug, "share.create");
    expect(shared).toMatchObject({ actor: 'project token "ci"', actorUserId: null, detail: { kind: "run", runId } });
    expect(JSON.stringify(shared)).not.toContain(uploadToken);
  });

  it("records share links made and revoked, keeping only the first characters of their id", async () => {
    const { slug, projectId } = await seedProjectWithToken(db(), "audit-share");
    const [runId] = await createNightlyRuns(db(), projectId, 1);
    const ada = await signedIn(db(), { ...ADA, serverAdmin: true });
    const link = await ada.caller.share.create({ project: slug, link: { run: runId!, expiresInDays: 7 } });
    // The same link minted again within a day is the same link: no second entry.
    await ada.caller.share.create({ project: slug, link: { run: runId!, expiresInDays: 7 } });
    const id = new URL(link.url).pathname.split("/").pop()!;
    await ada.caller.share.revoke({ project: slug, id });
    await ada.caller.share.revoke({ project: slug, id });
    const entries = await entriesOf(db(), slug);
    expect(entries.map((entry) => entry.action)).toEqual(["share.create", "share.revoke"]);
    expect(entries[0]).toMatchObject({ actor: ADA_WORDS, detail: { link: `${id.slice(0, 6)}…`, kind: "run", runId } });
    expect(entries[1]).toMatchObject({ actor: ADA_WORDS, detail: { link: `${id.slice(0, 6)}…`, createdBy: ADA_WORDS } });
    expect(JSON.stringify(entries)).not.toContain(id);
  });

  it("an incident's history and its audit entry name the person; an unknown number writes nothing", async () => {
    const { slug, projectId } = await seedProjectWithToken(db(), "audit-incident");
    const [runId] = await createNightlyRuns(db(), projectId, 1);
    const incident = await db().incident.create({ data: { projectId, number: 1, firstRunId: runId!, detectorVersion: 1 }, select: { id: true } });
    const ada = await signedIn(db(), { ...ADA, serverAdmin: true });
    await ada.caller.incident.update({ project: slug, numbers: [1], state: "accepted", note: "Expected: new index", by: "someone else" });
    await expect(ada.caller.incident.update({ project: slug, numbers: [1, 99], state: "fixed" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    const events = await db().incidentEvent.findMany({ where: { incidentId: incident.id }, select: { by: true, fromState: true, toState: true } });
    expect(events).toEqual([{ by: ADA_WORDS, fromState: "open", toState: "accepted" }]);
    expect(await db().incident.findUniqueOrThrow({ where: { id: incident.id }, select: { stateChangedBy: true } })).toEqual({ stateChangedBy: ADA_WORDS });
    expect(await entriesOf(db(), slug)).toEqual([
      {
        actor: ADA_WORDS,
        actorUserId: ada.userId,
        action: "incident.update",
        targetId: incident.id,
        detail: { number: 1, from: { state: "open", note: null }, to: { state: "accepted", note: "Expected: new index" } },
      },
    ]);

    // The admin token with a name given: the name stays in the history, beside the actor.
    await adminCaller(db()).incident.update({ project: slug, numbers: [1], state: "investigating", by: "sam" });
    const [, second] = await entriesOf(db(), slug);
    expect(second).toMatchObject({ actor: "admin token", detail: { from: { state: "accepted" }, to: { state: "investigating" }, by: "sam (admin token)" } });
  });

  it("records a regression's status change with who gave it, and nothing for an unknown one", async () => {
    const { slug, projectId } = await seedProjectWithToken(db(), "audit-change");
    const [runId] = await createNightlyRuns(db(), projectId, 1);
    const change = await db().change.create({
      data: { projectId, metric: "p95", kind: "regression", firstRunId: runId!, beforeValue: 10, afterValue: 20, deltaPct: 100 },
      select: { id: true },
    });
    const updated = await setChangeStatus(db(), { kind: "admin" }, slug, change.id, { status: "dismissed", by: "sam" });
    expect(updated.statusChangedBy).toBe("sam (admin token)");
    await setChangeStatus(db(), { kind: "admin" }, slug, change.id, { status: "dismissed" });
    await expect(setChangeStatus(db(), { kind: "admin" }, slug, "cnotachange00000000000000", { status: "open" })).rejects.toMatchObject({ code: "not_found" });
    expect(await entriesOf(db(), slug)).toEqual([
      { actor: "admin token", actorUserId: null, action: "change.update", targetId: change.id, detail: { from: { status: "open" }, to: { status: "dismissed" }, by: "sam (admin token)" } },
    ]);
  });

  it("records annotations added and deleted, and baseline pins set and cleared", async () => {
    const { slug, projectId } = await seedProjectWithToken(db(), "audit-marks");
    const [first, second] = await createNightlyRuns(db(), projectId, 2);
    const ada = await signedIn(db(), { ...ADA, serverAdmin: true });
    const note = await ada.caller.annotation.create({ project: slug, runId: first!, text: "deployed v2.3", kind: "deploy" });
    await ada.caller.annotation.delete({ project: slug, annotationId: note.id });
    await expect(ada.caller.annotation.delete({ project: slug, annotationId: note.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await ada.caller.baseline.pin({ project: slug, forLabel: "nightly", runIds: [first!] });
    await ada.caller.baseline.pin({ project: slug, forLabel: "nightly", runIds: [second!] });
    await ada.caller.baseline.unpin({ project: slug, forLabel: "nightly" });
    await expect(ada.caller.baseline.unpin({ project: slug, forLabel: "nightly" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(ada.caller.baseline.pin({ project: slug, forLabel: "x", runIds: ["cnotarun00000000000000000"] })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    const entries = await entriesOf(db(), slug);
    expect(entries.map((entry) => [entry.action, entry.actor])).toEqual([
      ["annotation.create", ADA_WORDS],
      ["annotation.delete", ADA_WORDS],
      ["pin.set", ADA_WORDS],
      ["pin.set", ADA_WORDS],
      ["pin.clear", ADA_WORDS],
    ]);
    expect(entries[0]!.detail).toMatchObject({ kind: "deploy", text: "deployed v2.3", runId: first });
    expect(entries[3]!.detail).toEqual({ forLabel: "nightly", from: { runIds: [first], label: null }, to: { runIds: [second], label: null } });
    expect(entries[4]!.detail).toEqual({ forLabel: "nightly", from: { runIds: [second], label: null }, to: { runIds: null, label: null } });
  });

  it("records a project import with its counts, and none for an import that adds nothing", async () => {
    const source = await seedProjectWithToken(db(), "audit-import");
    for (const runId of await createNightlyRuns(db(), source.projectId, 2)) {
      const run = await db().run.findUniqueOrThrow({ where: { id: runId }, select: { startedAt: true } });
      await db().result.create({ data: { runId, projectId: source.projectId, startedAt: run.startedAt, requests: 100, p95Ms: 20 } });
    }
    const { slug } = source;
    const exported: string[] = [];
    await (await prepareProjectExport(db(), { kind: "admin" }, source.slug)).write(async (line) => void exported.push(JSON.stringify(line)));
    const lines = async function* () {
      yield exported;
    };
    // Its runs deleted (straight from the table: no entry), the export brings them back.
    await db().run.deleteMany({ where: { projectId: source.projectId } });
    await importProject(db(), { kind: "admin" }, slug, lines());
    await importProject(db(), { kind: "admin" }, slug, lines());
    const entries = await entriesOf(db(), slug, "project.import");
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actor: "admin token", detail: { runs: { created: 2 } } });
  });

  it("pages newest first with a cursor, filters by action, and is read by maintainers and server admins only", async () => {
    const { slug, projectId, uploadToken } = await seedProjectWithToken(db(), "audit-read");
    const admin = adminCaller(db());
    for (const minEffectPct of [1, 2, 3, 4, 5.5]) await admin.settings.update({ project: slug, minEffectPct });
    await admin.settings.setSlaPolicy({ project: slug, targets: [{ metric: "p95", op: "<=", threshold: 50 }] });

    const first = await admin.settings.audit({ project: slug, limit: 4 });
    expect(first.entries.map((entry) => entry.action)).toEqual(["sla.update", "settings.update", "settings.update", "settings.update"]);
    expect(first.nextBefore).toBe(first.entries[3]!.id);
    const second = await admin.settings.audit({ project: slug, limit: 4, before: first.nextBefore! });
    expect(second.entries.map((entry) => entry.detail)).toEqual([{ from: { minEffectPct: 1 }, to: { minEffectPct: 2 } }, { from: { minEffectPct: 5 }, to: { minEffectPct: 1 } }]);
    expect(second.nextBefore).toBeNull();
    expect((await admin.settings.audit({ project: slug, action: "sla.update" })).entries).toHaveLength(1);
    await expect(admin.settings.audit({ project: slug, before: "cnoentry0000000000000000" })).rejects.toMatchObject({ code: "BAD_REQUEST" });

    // A maintainer of the project reads it; a viewer, a project token, a stranger may not.
    const maintainer = await signedIn(db(), { name: "Mae", email: "mae@example.com" });
    const viewer = await signedIn(db(), { name: "Vic", email: "vic@example.com" });
    await db().projectMember.createMany({
      data: [
        { projectId, kind: "email", subject: "mae@example.com", role: "maintainer", grantedBy: "test" },
        { projectId, kind: "email", subject: "vic@example.com", role: "viewer", grantedBy: "test" },
      ],
    });
    expect((await maintainer.caller.settings.audit({ project: slug })).entries).toHaveLength(6);
    await expect(viewer.caller.settings.audit({ project: slug })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(callerWith(db(), uploadToken).settings.audit({ project: slug })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(callerWith(db(), null).settings.audit({ project: slug })).rejects.toMatchObject({ code: "UNAUTHORIZED" });

    // The server's whole log: server admins only.
    const whole = await listServerAuditEntries(db(), { kind: "admin" }, { limit: 500, action: "sla.update" });
    expect(whole.entries.some((entry) => entry.project === slug)).toBe(true);
    await expect(listServerAuditEntries(db(), { kind: "user", user: { id: maintainer.userId, email: "mae@example.com", name: "Mae", groups: [], serverAdmin: false } }, { limit: 5 })).rejects.toMatchObject({
      code: "forbidden",
    });
    // A deleted project's entries: a server admin still reads them by slug.
    await db().project.delete({ where: { id: projectId } });
    expect((await listAuditEntries(db(), { kind: "admin" }, slug, { limit: 50 })).entries).toHaveLength(6);
  });
});

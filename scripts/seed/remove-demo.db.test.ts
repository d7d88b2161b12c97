import { describe, expect, it } from "vitest";
import { getDb } from "../../server/db";
import { setUpRouteTestDatabase } from "../../server/testing/rest-client";
import { GRPC_PROJECT, HTTP_PROJECT, MICRO_PROJECT } from "./plan";
import { removeDemo } from "./seed-demo";

// `npm run seed:demo -- --remove`: the demo projects go, with everything of them and an audit entry; a
// user's project that holds a demo slug stays. On the embedded database and, with DATABASE_URL, PostgreSQL.
setUpRouteTestDatabase();

describe("removeDemo", () => {
  it("deletes the projects marked as demo data, leaves a user's project alone, and removes nothing more when run again", async () => {
    const db = await getDb();
    await db.project.deleteMany({ where: { slug: { in: [HTTP_PROJECT, GRPC_PROJECT, MICRO_PROJECT] } } });
    const demo = await db.project.create({ data: { slug: HTTP_PROJECT, name: "demo", isDemo: true }, select: { id: true } });
    await db.run.create({ data: { projectId: demo.id, tool: "k6", format: "k6-summary", startedAt: new Date(), isDemo: true } });
    await db.project.create({ data: { slug: GRPC_PROJECT, name: "demo", isDemo: true } });
    await db.project.create({ data: { slug: MICRO_PROJECT, name: "mine", isDemo: false } });

    expect(await removeDemo(db)).toEqual({ removed: [{ slug: HTTP_PROJECT, runs: 1 }, { slug: GRPC_PROJECT, runs: 0 }], kept: [MICRO_PROJECT] });
    expect((await db.project.findMany({ where: { slug: { in: [HTTP_PROJECT, GRPC_PROJECT, MICRO_PROJECT] } }, select: { slug: true } })).map((p) => p.slug)).toEqual([MICRO_PROJECT]);
    expect(await db.run.count({ where: { projectId: demo.id } })).toBe(0);
    const entry = await db.auditEntry.findFirst({ where: { projectSlug: HTTP_PROJECT, action: "project.delete" }, orderBy: { at: "desc" } });
    expect(entry?.actor).toBe("npm run seed:demo -- --remove");

    expect(await removeDemo(db)).toEqual({ removed: [], kept: [MICRO_PROJECT] });
    await db.project.delete({ where: { slug: MICRO_PROJECT } });
  });
});

import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import superjson from "superjson";
import { describe, expect, it } from "vitest";
import { testDatabaseTargets, uniqueSlug } from "../../testing/databases";
import { TEST_ADMIN_TOKEN } from "../../testing/rest-client";
import { adminCaller, callerWith, expectAdminOnly, seedProjectWithToken, useRouterDatabase } from "../../testing/trpc-callers";
import { appRouter } from "../root";

const POLICY = { targets: [{ metric: "p95" as const, op: "<=" as const, threshold: 50, unit: "ms" }] };

describe.each(testDatabaseTargets())("settings router on $name", ({ target }) => {
  const database = useRouterDatabase(target);

  it("shows the settings and current SLA targets to anyone, and not-found for an unknown project", async () => {
    const { slug } = await seedProjectWithToken(database().prisma, "settings-read");
    const open = callerWith(database().prisma, null);
    expect(await open.settings.get({ project: slug })).toMatchObject({
      settings: { slug, name: slug, defaultBranch: "main", repoUrl: null, minEffectPct: 5, alpha: 0.01, gateMetric: "auto" },
      slaTargets: [],
    });
    await adminCaller(database().prisma).settings.setSlaPolicy({ project: slug, ...POLICY });
    expect((await open.settings.get({ project: slug })).slaTargets).toEqual([{ ...POLICY.targets[0], scope: "endpoints", weight: 1 }]);
    await expect(open.settings.get({ project: uniqueSlug("nope") })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("changes settings with the admin token, with the path of a bad value", async () => {
    const { slug } = await seedProjectWithToken(database().prisma, "settings-update");
    const admin = adminCaller(database().prisma);
    const updated = await admin.settings.update({ project: slug, name: "Listings", repoUrl: "https://github.com/acme/listings", minEffectPct: 3 });
    expect(updated).toMatchObject({ slug, name: "Listings", repoUrl: "https://github.com/acme/listings", minEffectPct: 3, alpha: 0.01 });
    expect((await admin.settings.get({ project: slug })).settings.name).toBe("Listings");

    const bad = await admin.settings.update({ project: slug, alpha: 2 }).catch((error: unknown) => error);
    expect(bad).toMatchObject({ code: "BAD_REQUEST", cause: { code: "bad_request", details: [{ path: "alpha" }] } });
    await expect(admin.settings.update({ project: uniqueSlug("nope"), name: "x" })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("replaces the SLA policy with the admin token; an empty list removes it", async () => {
    const { slug } = await seedProjectWithToken(database().prisma, "settings-sla");
    const admin = adminCaller(database().prisma);
    expect(await admin.settings.setSlaPolicy({ project: slug, ...POLICY })).toEqual({
      targets: [{ ...POLICY.targets[0], scope: "endpoints", weight: 1 }],
    });
    expect(await admin.settings.setSlaPolicy({ project: slug, targets: [] })).toEqual({ targets: [] });
    expect(await database().prisma.slaPolicy.count({ where: { project: { slug } } })).toBe(0);
  });

  it("refuses settings and SLA changes without the admin token, and changes nothing", async () => {
    const { slug, uploadToken } = await seedProjectWithToken(database().prisma, "settings-refused");
    await expectAdminOnly(database().prisma, uploadToken, (caller) => caller.settings.update({ project: slug, name: "Hijacked" }));
    await expectAdminOnly(database().prisma, uploadToken, (caller) => caller.settings.setSlaPolicy({ project: slug, ...POLICY }));
    expect(await callerWith(database().prisma, null).settings.get({ project: slug })).toMatchObject({ settings: { name: slug }, slaTargets: [] });
  });

  it("sends the browser the message and the path at fault of a refused value, as the REST envelope does", async () => {
    const { slug } = await seedProjectWithToken(database().prisma, "settings-wire");
    const input = { project: slug, targets: [{ metric: "p95", op: "=<", threshold: 50 }] };
    const response = await fetchRequestHandler({
      endpoint: "/api/trpc",
      req: new Request("http://localhost/api/trpc/settings.setSlaPolicy", {
        method: "POST",
        headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, "content-type": "application/json" },
        body: JSON.stringify(superjson.serialize(input)),
      }),
      router: appRouter,
      createContext: ({ req }) => ({ db: database().prisma, authorization: req.headers.get("authorization") }),
    });
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: { json: { message: string; data: Record<string, unknown> } } };
    expect(error.json.message).toBe("The request does not match the expected shape");
    expect(error.json.data).toMatchObject({ code: "BAD_REQUEST", serviceCode: "bad_request", details: [{ path: "targets[0].op" }] });
  });
});

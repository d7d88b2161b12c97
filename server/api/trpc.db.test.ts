import { TRPCError } from "@trpc/server";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../db";
import { ServiceError } from "../services/platform/errors";
import { openMigratedDatabase } from "../testing/databases";
import { credentialsOfHeaders } from "../services/access/auth";
import { adminProcedure, createCallerFactory, createTRPCRouter, openProcedure, readProcedure } from "./trpc";

const ADMIN_TOKEN = "trpc-test-admin-token-0123";

const router = createTRPCRouter({
  whoAmI: adminProcedure.query(({ ctx }) => ctx.principal.kind),
  missing: readProcedure.query(() => {
    throw new ServiceError("not_found", 'Run "r1" not found', [{ path: "id", message: "no such run" }]);
  }),
  broken: readProcedure.query(() => {
    throw new Error('relation "runs" does not exist (a database message)');
  }),
  pin: adminProcedure.mutation(() => "pinned"),
  note: openProcedure.mutation(() => "noted"),
  peek: readProcedure.query(() => "peeked"),
});

describe("tRPC procedures", () => {
  let database: Database;
  const caller = (authorization: string | null) => createCallerFactory(router)({ db: database.prisma, authorization });

  beforeAll(async () => {
    process.env.BENCHTRACK_ADMIN_TOKEN = ADMIN_TOKEN;
    database = await openMigratedDatabase({ kind: "memory" });
  });

  afterAll(async () => {
    await database.close();
  });

  it("let the admin token through adminProcedure, as the REST API does", async () => {
    await expect(caller(`Bearer ${ADMIN_TOKEN}`).whoAmI()).resolves.toBe("admin");
  });

  it("refuse an admin call without a token (UNAUTHORIZED) or with a wrong one", async () => {
    await expect(caller(null).whoAmI()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(caller("Bearer not-the-admin-token").whoAmI()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(caller("Basic abc").whoAmI()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });

  it("map a service error to its tRPC code and keep it as the cause, details included", async () => {
    const error = await caller(null).missing().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TRPCError);
    expect(error).toMatchObject({ code: "NOT_FOUND", message: 'Run "r1" not found' });
    expect((error as TRPCError).cause).toMatchObject({ code: "not_found", details: [{ path: "id", message: "no such run" }] });
  });

  it("answer an unexpected error as INTERNAL_SERVER_ERROR without its internal message", async () => {
    const error = await caller(null).broken().catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "INTERNAL_SERVER_ERROR", message: expect.stringMatching(/^Internal error \(logged on the server\)/) });
  });

  // Issue 36, item 12: another site could make a signed-in browser POST a mutation (its cookie goes along).
  describe("a mutation another site sent", () => {
    const withHeaders = (headers: Record<string, string>, authorization: string | null = `Bearer ${ADMIN_TOKEN}`) =>
      createCallerFactory(router)({ db: database.prisma, authorization, requestHeaders: new Headers(headers) });

    it("is refused (FORBIDDEN) by Origin or Sec-Fetch-Site, before the caller is looked at, whatever the procedure", async () => {
      const senders: Record<string, string>[] = [
        { origin: "https://evil.example", host: "bench.test" },
        { origin: "null", host: "bench.test" },
        { origin: "https://sub.bench.test", host: "bench.test", "sec-fetch-site": "same-site" },
        { "sec-fetch-site": "cross-site", host: "bench.test" },
      ];
      for (const headers of senders) {
        await expect(withHeaders(headers).pin()).rejects.toMatchObject({ code: "FORBIDDEN", message: expect.stringMatching(/another site/) });
        await expect(withHeaders(headers, null).pin()).rejects.toMatchObject({ code: "FORBIDDEN" });
        await expect(withHeaders(headers, null).note()).rejects.toMatchObject({ code: "FORBIDDEN" });
      }
    });

    it("passes from this server's own pages, and with neither header (curl, in-process calls)", async () => {
      await expect(withHeaders({ origin: "http://bench.test:3000", host: "bench.test:3000", "sec-fetch-site": "same-origin" }).pin()).resolves.toBe("pinned");
      await expect(withHeaders({ host: "bench.test" }).pin()).resolves.toBe("pinned");
      await expect(caller(`Bearer ${ADMIN_TOKEN}`).pin()).resolves.toBe("pinned");
      await expect(withHeaders({ host: "bench.test" }, null).note()).resolves.toBe("noted");
    });

    it("does not stop a query (its answer cannot be read by the other site; a page may be opened from a link)", async () => {
      await expect(withHeaders({ origin: "https://evil.example", host: "bench.test", "sec-fetch-site": "cross-site" }).peek()).resolves.toBe("peeked");
    });

    it("is answered 403 over HTTP, as the dashboard's tRPC endpoint would", async () => {
      const post = (headers: Record<string, string>) =>
        fetchRequestHandler({
          endpoint: "/api/trpc",
          req: new Request("http://bench.test/api/trpc/pin", {
            method: "POST",
            headers: { host: "bench.test", authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json", ...headers },
            body: "{}",
          }),
          router,
          createContext: ({ req }) => ({ db: database.prisma, ...credentialsOfHeaders(req.headers), requestHeaders: req.headers }),
        });
      const refused = await post({ origin: "https://evil.example" });
      expect(refused.status).toBe(403);
      expect(JSON.stringify(await refused.json())).toMatch(/another site/);
      expect((await post({ origin: "http://bench.test" })).status).toBe(200);
      expect((await post({})).status).toBe(200);
    });
  });
});

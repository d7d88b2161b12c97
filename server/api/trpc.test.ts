import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../db";
import { ServiceError } from "../services/errors";
import { openMigratedDatabase } from "../testing/databases";
import { adminProcedure, createCallerFactory, createTRPCRouter, readProcedure } from "./trpc";

const ADMIN_TOKEN = "trpc-test-admin-token-0123";

const router = createTRPCRouter({
  whoAmI: adminProcedure.query(({ ctx }) => ctx.principal.kind),
  missing: readProcedure.query(() => {
    throw new ServiceError("not_found", 'Run "r1" not found', [{ path: "id", message: "no such run" }]);
  }),
  broken: readProcedure.query(() => {
    throw new Error('relation "runs" does not exist (a database message)');
  }),
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
});

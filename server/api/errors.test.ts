import { TRPCError } from "@trpc/server";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { describe, expect, it } from "vitest";
import { ServiceError } from "../services/platform/errors";
import { retryAfterHeaders, toTRPCError } from "./errors";
import { createTRPCRouter, openProcedure } from "./trpc";

const notQueryable = () => new Error("Client has encountered a connection error and is not queryable");

const router = createTRPCRouter({
  lostConnection: openProcedure.query(() => {
    throw notQueryable();
  }),
  broken: openProcedure.query(() => {
    throw new Error("boom");
  }),
});

/** The tRPC endpoint as app/api/trpc/[trpc]/route.ts serves it, with the Retry-After of its errors. */
const serve = (path: string) =>
  fetchRequestHandler({
    endpoint: "/api/trpc",
    req: new Request(`http://localhost/api/trpc/${path}`),
    router,
    createContext: () => ({ db: undefined as never }),
    responseMeta: ({ errors }) => ({ headers: retryAfterHeaders(errors) }),
  });

describe("a database that cannot be reached, through tRPC", () => {
  it("is SERVICE_UNAVAILABLE, however tRPC wrapped it", () => {
    const wrapped = new TRPCError({ code: "INTERNAL_SERVER_ERROR", cause: notQueryable() });
    expect(toTRPCError(wrapped).code).toBe("SERVICE_UNAVAILABLE");
    expect(toTRPCError(notQueryable()).code).toBe("SERVICE_UNAVAILABLE");
  });

  it("answers 503 with Retry-After; another failure 500 without it", async () => {
    const unavailable = await serve("lostConnection");
    expect(unavailable.status).toBe(503);
    expect(unavailable.headers.get("retry-after")).toBe("5");
    const broken = await serve("broken");
    expect(broken.status).toBe(500);
    expect(broken.headers.get("retry-after")).toBeNull();
  });

  it("takes the longest wait of a batch's errors", () => {
    const limited = toTRPCError(new ServiceError("too_many_requests", "Too many uploads", [], 42));
    const unavailable = toTRPCError(notQueryable());
    expect(retryAfterHeaders([limited, unavailable])).toEqual({ "Retry-After": "42" });
    expect(retryAfterHeaders([toTRPCError(new Error("boom"))])).toEqual({});
  });
});

import { DriverAdapterError } from "@prisma/driver-adapter-utils";
import { describe, expect, it } from "vitest";
import { Prisma } from "../../generated/prisma/client";
import { CONFLICT_RETRY_AFTER_SECONDS, DATABASE_RETRY_AFTER_SECONDS, toServiceError } from "./errors";

/** What node-postgres throws, with no code, for a query on a pooled client whose connection broke. */
const notQueryable = () => new Error("Client has encountered a connection error and is not queryable");

/** A connect refused, as Node reports one tried on several addresses (localhost: ::1 and 127.0.0.1). */
function refusedOnEveryAddress(): AggregateError {
  const refused = (address: string) => Object.assign(new Error(`connect ECONNREFUSED ${address}:5432`), { code: "ECONNREFUSED", address });
  return new AggregateError([refused("::1"), refused("127.0.0.1")]);
}

describe("toServiceError: a database that cannot be reached is 'unavailable' (503, Retry-After)", () => {
  const unavailable: [string, () => unknown][] = [
    ["a pooled client used after its connection broke (node-postgres, no code)", notQueryable],
    ["the same, as the cause of Prisma's adapter error", () => new DriverAdapterError({ kind: "GenericJs", id: 1, message: "x", cause: notQueryable() } as never)],
    ["the same, deep in causes", () => new Error("outer", { cause: new Error("middle", { cause: notQueryable() }) })],
    ["a client closed under a query", () => new Error("Client was closed and is not queryable")],
    ["a socket closed under a query", () => new Error("Connection terminated unexpectedly")],
    ["a connect that timed out (pg-pool)", () => new Error("timeout exceeded when trying to connect")],
    ["a connect refused on every address (AggregateError)", refusedOnEveryAddress],
    [
      "a session the restart terminated (SQLSTATE 57P01, through Prisma)",
      () =>
        new Prisma.PrismaClientKnownRequestError("Raw query failed. Code: `57P01`.", {
          code: "P2010",
          clientVersion: "7",
          meta: { driverAdapterError: new DriverAdapterError({ kind: "postgres", code: "57P01", severity: "FATAL", message: "terminating connection due to administrator command" } as never) },
        }),
    ],
    ["a server starting up (57P03), in words only", () => new Error("the database system is starting up")],
    ["a connect refused (Prisma's adapter)", () => new DriverAdapterError({ kind: "DatabaseNotReachable", host: "127.0.0.1", port: 5432 } as never)],
  ];

  it.each(unavailable)("%s", (_name, make) => {
    const error = toServiceError(make());
    expect(error.code).toBe("unavailable");
    expect(error.retryAfterSeconds).toBe(DATABASE_RETRY_AFTER_SECONDS);
  });

  it("keeps every other failure internal, with no Retry-After", () => {
    for (const error of [new Error("boom"), new TypeError("x is undefined"), { message: "relation \"runs\" does not exist" }, "a string"]) {
      expect(toServiceError(error)).toMatchObject({ code: "internal", retryAfterSeconds: null });
    }
  });

  it("stops at a cause chain that loops", () => {
    const error = new Error("first") as Error & { cause?: unknown };
    error.cause = error;
    expect(toServiceError(error).code).toBe("internal");
  });
});

describe("toServiceError: a transaction rolled back for a concurrent one is 'unavailable' (503, Retry-After 1), not internal", () => {
  const deadlock = () =>
    new Prisma.PrismaClientKnownRequestError("Raw query failed. Code: `40P01`. Message: `deadlock detected`", {
      code: "P2010",
      clientVersion: "7",
      meta: { driverAdapterError: new DriverAdapterError({ kind: "TransactionWriteConflict", originalCode: "40P01", originalMessage: "deadlock detected" } as never) },
    });
  const conflicts: [string, () => unknown][] = [
    ["a deadlock, as Prisma's raw query reports it (P2010, its adapter's TransactionWriteConflict, 40P01)", deadlock],
    ["a serialization failure (SQLSTATE 40001) from node-postgres", () => Object.assign(new Error("could not serialize access due to concurrent update"), { code: "40001" })],
    ["Prisma's own write conflict (P2034)", () => new Prisma.PrismaClientKnownRequestError("Transaction failed due to a write conflict or a deadlock", { code: "P2034", clientVersion: "7" })],
  ];

  it.each(conflicts)("%s", (_name, make) => {
    const error = toServiceError(make());
    expect(error.code).toBe("unavailable");
    expect(error.retryAfterSeconds).toBe(CONFLICT_RETRY_AFTER_SECONDS);
    expect(error.message).toMatch(/rolled back: nothing was stored/);
  });
});

import { readFileSync } from "node:fs";
import path from "node:path";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { describe, expect, it } from "vitest";
import { getDb } from "../../db";
import { runMetadataSchema } from "../../domain/parsers";
import { admit } from "../../http/auth";
import { setUpRouteTestDatabase, TEST_ADMIN_TOKEN } from "../../testing/rest-client";
import { seedProjectWithToken } from "../../testing/trpc-callers";
import { uniqueSlug } from "../../testing/databases";
import { authorizeUpload, uploadOfFiles, uploadRun } from ".";

// The statements (each one a round trip to the database) an upload takes, by phase, as the REST route
// makes it: admission (admit, then authorizeUpload), the reads before the transaction (the gate's
// history), the transaction (BEGIN … COMMIT). Counted at the Prisma driver adapter, on either database:
// every query the adapter runs, and BEGIN and COMMIT where the adapter keeps them to itself (PGlite's
// transaction()). Counts, never times: the bounds are what docs/architecture.md's path promises.

// Rate limits on (vitest.config.ts turns them off), before the environment is first read: admission
// counts what it counts in production.
process.env.BENCHTRACK_RATE_UPLOADS_PER_MINUTE = "100000";
process.env.BENCHTRACK_RATE_AUTH_FAILURES_PER_MINUTE = "1000";

const statements: string[] = [];
let recording = false;
const note = (text: string) => {
  if (recording) statements.push(text.replace(/\s+/g, " ").trim().slice(0, 100));
};

type Queryable = { queryRaw(query: { sql: string }): Promise<unknown>; executeRaw(query: { sql: string }): Promise<unknown> };
/** The adapter (or its transaction) with every query counted; methods bound to the original (private fields). */
function counting<T extends object>(target: T): T {
  return new Proxy(target, {
    get(object, property) {
      const value = Reflect.get(object, property, object) as unknown;
      if (typeof value !== "function") return value;
      if (property === "queryRaw" || property === "executeRaw") {
        return (query: { sql: string }) => {
          note(query.sql);
          return (value as Queryable["queryRaw"]).call(object, query);
        };
      }
      if (property === "startTransaction") {
        return async (...args: unknown[]) => {
          const tx = (await (value as (...a: unknown[]) => Promise<object & { options?: { usePhantomQuery?: boolean } }>).apply(object, args));
          // BEGIN is the adapter's own (node-postgres sends it from startTransaction); so is a phantom
          // transaction's COMMIT (PGlite's transaction()), while Prisma sends node-postgres's COMMIT itself.
          note("BEGIN");
          if (!tx.options?.usePhantomQuery) return counting(tx);
          return new Proxy(counting(tx), {
            get(wrapped, name) {
              const method = Reflect.get(wrapped, name, wrapped) as unknown;
              if (name !== "commit" || typeof method !== "function") return method;
              return () => {
                note("COMMIT");
                return (method as () => Promise<void>).call(wrapped);
              };
            },
          });
        };
      }
      return (value as (...a: unknown[]) => unknown).bind(object);
    },
  });
}
for (const Factory of [PrismaPg, PrismaPGlite]) {
  // eslint-disable-next-line @typescript-eslint/unbound-method -- applied to its own factory below
  const connect = Factory.prototype.connect;
  Factory.prototype.connect = async function (this: InstanceType<typeof Factory>) {
    return counting(await connect.call(this));
  };
}

setUpRouteTestDatabase();

const FIXTURE = path.join(__dirname, "..", "..", "domain", "parsers", "fixtures", "k6", "baseline", "round1", "summary.json");

interface Phases {
  admission: string[];
  beforeTransaction: string[];
  transaction: string[];
  after: string[];
  total: number;
}

/** One k6 summary upload of `slug`'s nightly series, its statements by phase. */
async function countedUpload(slug: string, token: string, round: number, address: string): Promise<Phases> {
  const db = await getDb();
  const request = new Request(`http://127.0.0.1/api/v1/projects/${slug}/runs`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "x-forwarded-for": address },
  });
  statements.length = 0;
  recording = true;
  try {
    const principal = await admit(request, db, "upload");
    const target = await authorizeUpload(db, principal, slug, address);
    const admitted = statements.length;
    await uploadRun(db, {
      target,
      upload: uploadOfFiles([{ name: "summary.json", contentType: "application/json", bytes: readFileSync(FIXTURE) }]),
      query: { format: null, metadata: runMetadataSchema.parse({ label: "nightly", branch: "main", round }), idempotencyKey: null, failOn: null },
      baseUrl: "http://127.0.0.1",
    });
    const all = [...statements];
    const begin = all.indexOf("BEGIN", admitted);
    const commit = all.indexOf("COMMIT", begin);
    expect(begin, "the upload has a transaction").toBeGreaterThan(-1);
    expect(commit, "the transaction commits").toBeGreaterThan(begin);
    return {
      admission: all.slice(0, admitted),
      beforeTransaction: all.slice(admitted, begin),
      transaction: all.slice(begin, commit + 1),
      after: all.slice(commit + 1),
      total: all.length,
    };
  } finally {
    recording = false;
  }
}

/** The bounds this upload keeps: raise them only with a reason the commit message gives. */
const BOUNDS = { admission: 2, beforeTransaction: 3, transaction: 3, total: 8 };
const PROJECT_TOKEN_ADMISSION = 2;

describe("an upload's statements", () => {
  it("with the admin token: admission, the gate's history, then a transaction of 3 round trips: BEGIN, the run's one statement, COMMIT", async () => {
    const slug = uniqueSlug("statements");
    // A history to judge against: the first upload creates the project, the next ones make a baseline.
    for (const round of [1, 2, 3]) await countedUpload(slug, TEST_ADMIN_TOKEN, round, "10.0.0.1");
    const phases = await countedUpload(slug, TEST_ADMIN_TOKEN, 4, "10.0.0.1");
    const shown = JSON.stringify(phases, null, 1);
    expect(phases.admission.length, shown).toBeLessThanOrEqual(BOUNDS.admission);
    expect(phases.beforeTransaction.length, shown).toBeLessThanOrEqual(BOUNDS.beforeTransaction);
    expect(phases.transaction.length, shown).toBeLessThanOrEqual(BOUNDS.transaction);
    // The run is judged before the transaction: inside it, only the run's statement (store-run.ts).
    expect(phases.transaction[1], shown).toMatch(/^WITH project_row AS/);
    expect(phases.after, shown).toEqual([]);
    expect(phases.total, shown).toBeLessThanOrEqual(BOUNDS.total);
  });

  it("with a project token: its lookup and last-used within admission's bound", async () => {
    const db = await getDb();
    const { slug, uploadToken } = await seedProjectWithToken(db, "statements-token");
    for (const round of [1, 2]) await countedUpload(slug, uploadToken, round, "10.0.0.2");
    const before = new Date();
    const phases = await countedUpload(slug, uploadToken, 3, "10.0.0.2");
    const shown = JSON.stringify(phases, null, 1);
    expect(phases.admission.length, shown).toBeLessThanOrEqual(PROJECT_TOKEN_ADMISSION);
    expect(phases.transaction.length, shown).toBeLessThanOrEqual(BOUNDS.transaction);
    expect(phases.total, shown).toBeLessThanOrEqual(BOUNDS.total - BOUNDS.admission + PROJECT_TOKEN_ADMISSION);
    const token = await db.apiToken.findFirstOrThrow({ where: { project: { slug } }, select: { lastUsedAt: true } });
    expect(token.lastUsedAt!.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1000);
  });
});

import { randomBytes, randomInt } from "node:crypto";

/**
 * A new run's id, made before the run is stored so that the upload can judge the run and answer with
 * its links before writing it (ingest-run.ts). The shape of Prisma's `cuid()` (prisma/schema.prisma):
 * "c", the time in base 36, a per-process counter, random bits; 25 characters. Runs started at the same
 * millisecond list newest first by id (orderBy startedAt, id), so ids must grow with time, as cuid's do:
 * the time comes first and the counter breaks ties within a millisecond.
 */
const COUNTER_RANGE = 36 ** 4;
let counter = randomInt(COUNTER_RANGE);

export function newRunId(): string {
  counter = (counter + 1) % COUNTER_RANGE;
  const time = Date.now().toString(36).padStart(8, "0");
  const count = counter.toString(36).padStart(4, "0");
  const random = BigInt(`0x${randomBytes(8).toString("hex")}`).toString(36).padStart(12, "0").slice(-12);
  return `c${time}${count}${random}`;
}

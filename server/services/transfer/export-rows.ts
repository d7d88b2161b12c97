import type { Prisma } from "../../generated/prisma/client";
import type { TransferLine } from "../../schemas/transfer";
import type { StoredFloat, TransferJson } from "../../schemas/transfer-fields";

/**
 * What the export's line writers share (export-lines.ts, export-run-lines.ts): the sink each line goes to,
 * a table's rows read in keyset batches, and a stored value as the file spells it.
 */

/** Takes one line; resolves when the reader wants more (backpressure), throws when it went away. */
export type LineSink = (line: TransferLine) => Promise<void>;

/** Rows per batch of the small tables (endpoints, annotations, incidents, changes). */
export const ROW_BATCH = 500;

export function storedFloat(value: number): StoredFloat {
  if (Number.isFinite(value)) return value;
  return Number.isNaN(value) ? "NaN" : value > 0 ? "Infinity" : "-Infinity";
}
export const optionalFloat = (value: number | null): StoredFloat | null => (value === null ? null : storedFloat(value));
export const iso = (value: Date) => value.toISOString();
export const optionalIso = (value: Date | null) => (value === null ? null : value.toISOString());
/** A Json column as Prisma reads it: already JSON values. */
export const asJson = (value: Prisma.JsonValue) => value as TransferJson;

/** Rows of one table after `after`, in id order, a batch at a time. */
export async function* batches<Row extends { id: Id }, Id>(read: (after: Id | undefined) => Promise<Row[]>, size: number): AsyncGenerator<Row[]> {
  let after: Id | undefined;
  for (;;) {
    const rows = await read(after);
    if (rows.length > 0) yield rows;
    if (rows.length < size) return;
    after = rows[rows.length - 1]!.id;
  }
}

/** The keyset condition of the batch after `id` (the first batch: none). */
export const afterId = <Id,>(id: Id | undefined) => (id === undefined ? {} : { id: { gt: id } });

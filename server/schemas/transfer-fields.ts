import { z } from "zod";

/**
 * The field types of the export file's lines (transfer.ts): ids, ISO 8601 times, bounded text and int4s,
 * any stored JSON value, and float8s written exactly (non-finite ones as strings).
 */

export const idSchema = z.string().min(1).max(200);
export const timeSchema = z.iso.datetime({ offset: true }).describe("ISO 8601");
export const optionalTime = timeSchema.nullable();
export const text = z.string().max(100_000);
export const optionalText = text.nullable();
export const int = z.number().int().min(-2_147_483_648).max(2_147_483_647);
/** A Json column's value as the file carries it: any JSON value (a line is JSON.parse's output), but present. */
export type TransferJson = string | number | boolean | null | TransferJson[] | { [key: string]: TransferJson };
export const json = z.custom<TransferJson>((value) => value !== undefined, "required").describe("any JSON value, as stored");

/** A float8 as stored: a JSON number, or "NaN", "Infinity", "-Infinity" (JSON has no spelling of them). */
export const storedFloatSchema = z.union([z.number(), z.enum(["NaN", "Infinity", "-Infinity"])]);
export type StoredFloat = z.infer<typeof storedFloatSchema>;
export const optionalFloat = storedFloatSchema.nullable();

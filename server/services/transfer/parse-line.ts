import type { z } from "zod";
import { textProblems } from "../../domain/parsers/validate";
import { Prisma } from "../../generated/prisma/client";
import type { ParsedTransferLine, TransferLineKind } from "../../schemas/transfer";
import { TRANSFER_LINE_SCHEMAS } from "../../schemas/transfer";
import type { StoredFloat } from "../../schemas/transfer-fields";
import { ServiceError } from "../platform";

/**
 * One line of an import (import-lines.ts): its text parsed by its kind's one schema, the refusal naming the
 * line and the path at fault (a database's refusal read as one too), and its values as the database stores
 * them (exact floats, dates, JSON and SQL nulls).
 */

/** A line parsed by its kind's schema, with its kind (so a switch on `kind` knows the line's type). */
export type ParsedLine = { [Kind in TransferLineKind]: { kind: Kind; line: ParsedTransferLine<Kind> } }[TransferLineKind];

/** The refusal of line `lineNumber` at `path` ("" for the whole line): a 400 or 409 saying nothing was imported. */
export function lineError(code: "bad_request" | "conflict", lineNumber: number, path: string, message: string): ServiceError {
  const where = path === "" ? `line ${lineNumber}` : `line ${lineNumber}: ${path}`;
  return new ServiceError(code, `Import refused at ${where}: ${message}; nothing was imported`, [{ path: where, message }]);
}

function zodPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, part) => (typeof part === "number" ? `${text}[${part}]` : text === "" ? String(part) : `${text}.${String(part)}`), "");
}

/** One line of text as its kind's parsed line, or the 400 naming the line and path. */
export function parseTransferLine(text: string, lineNumber: number): ParsedLine {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw lineError("bad_request", lineNumber, "", "not a JSON object (a truncated or corrupted line?)");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw lineError("bad_request", lineNumber, "", "not a JSON object");
  const kind = (value as { kind?: unknown }).kind;
  if (typeof kind !== "string" || !Object.hasOwn(TRANSFER_LINE_SCHEMAS, kind)) {
    throw lineError("bad_request", lineNumber, "kind", `unknown line kind ${JSON.stringify(kind ?? null)}; expected one of ${Object.keys(TRANSFER_LINE_SCHEMAS).join(", ")}`);
  }
  const schema: z.ZodType = TRANSFER_LINE_SCHEMAS[kind as TransferLineKind];
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw lineError("bad_request", lineNumber, zodPath(issue.path), issue.message);
  }
  // Text no PostgreSQL column can hold (NUL, a lone surrogate): refused here, not as a database error.
  for (const problem of textProblems(value, "")) throw lineError("bad_request", lineNumber, problem.path.replace(/^\./, ""), problem.message);
  return { kind, line: parsed.data } as ParsedLine;
}

export const float = (value: StoredFloat): number => (typeof value === "number" ? value : Number(value));
export const optionalFloat = (value: StoredFloat | null): number | null => (value === null ? null : float(value));
export const date = (value: string) => new Date(value);
export const optionalDate = (value: string | null) => (value === null ? null : new Date(value));
/** A NOT NULL Json column: JSON null is stored as JSON null. */
export const json = (value: Prisma.JsonValue): Prisma.InputJsonValue | typeof Prisma.JsonNull => (value === null ? Prisma.JsonNull : (value));
/** A nullable Json column: null is SQL NULL, as the upload path stores it. */
export const jsonOrNull = (value: Prisma.JsonValue): Prisma.InputJsonValue | typeof Prisma.DbNull => (value === null ? Prisma.DbNull : (value));

/** PostgreSQL's refusals, found along an error's causes: a unique or foreign key violation, a bad value. */
export function databaseRefusal(error: unknown): "unique" | "reference" | "value" | null {
  for (let cause: unknown = error, depth = 0; cause && depth < 6; cause = (cause as { cause?: unknown }).cause, depth++) {
    const { code, message, meta } = cause as { code?: unknown; message?: unknown; meta?: unknown };
    const text = [code, message, meta].map((part) => (typeof part === "string" ? part : JSON.stringify(part ?? ""))).join(" ");
    if (/P2002|23505|UniqueConstraintViolation|unique constraint/i.test(text)) return "unique";
    if (/P2003|23503|ForeignKeyConstraintViolation|foreign key/i.test(text)) return "reference";
    if (/\b22\d{3}\b|P2000|P2020|out of range|invalid input/i.test(text)) return "value";
  }
  return null;
}

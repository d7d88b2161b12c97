import { z } from "zod";
import { BENCHTRACK_SCHEMA_ID, runInputSchema } from "../../domain/parsers/benchtrack";
import { budgetFileSchema } from "../../schemas/budget";

export type JsonSchema = Record<string, unknown>;

/** A Zod schema as JSON Schema 2020-12; `io` says whether it describes what is sent or what comes back. */
export function toJsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    target: "draft-2020-12",
    io,
    unrepresentable: "any",
  });
  return rest;
}

/** The Benchtrack JSON format v1 as a standalone JSON Schema document (GET /api/v1/schema/run.json). */
export function buildRunInputJsonSchema(id?: string): JsonSchema {
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    ...(id !== undefined && { $id: id }),
    title: `Benchtrack JSON format (${BENCHTRACK_SCHEMA_ID})`,
    ...toJsonSchema(runInputSchema, "input"),
  };
}

/** benchtrack.json, a repository's budget, as a standalone JSON Schema (GET /api/v1/schema/benchtrack.json). */
export function buildBudgetJsonSchema(id?: string): JsonSchema {
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    ...(id !== undefined && { $id: id }),
    title: "benchtrack.json: SLA targets and gate settings as code",
    ...toJsonSchema(budgetFileSchema, "input"),
  };
}

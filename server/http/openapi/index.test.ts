import { readFileSync, readdirSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { runDocumentSchema } from "../../domain/parsers/benchtrack/benchtrack-document";
import { runInputSchema } from "../../domain/parsers/benchtrack/benchtrack";
import { runMetadataSchema } from "../../domain/parsers/metadata";
import { buildOpenApiDocument, buildRunInputJsonSchema } from ".";
import { createProjectSchema } from "../../schemas/projects";
import { createTokenSchema } from "../../schemas/tokens";

const API_DIR = fileURLToPath(new URL("../../../app/api/v1", import.meta.url));

/** Every REST route file under app/api/v1 as "METHOD /api/v1/…" with Next's [param] written {param}. */
function routeOperations(): string[] {
  const operations: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name === "route.ts") {
        const folder = relative(API_DIR, dir).split(sep).join("/");
        const urlPath = `/api/v1/${folder}`.replace(/\[([^\]]+)\]/g, "{$1}");
        for (const match of readFileSync(path, "utf8").matchAll(/export const (GET|POST|PUT|PATCH|DELETE)\b/g)) {
          operations.push(`${match[1]} ${urlPath}`);
        }
      }
    }
  };
  walk(API_DIR);
  // The probes and metrics, outside /api/v1 (docs/operations.md), are documented too.
  for (const [folder, urlPath] of [["api/health", "/api/health"], ["api/ready", "/api/ready"], ["metrics", "/metrics"]] as const) {
    const source = readFileSync(join(API_DIR, "../..", folder, "route.ts"), "utf8");
    for (const match of source.matchAll(/export const (GET|POST|PUT|PATCH|DELETE)\b/g)) operations.push(`${match[1]} ${urlPath}`);
  }
  return operations.sort();
}

/** z.toJSONSchema's own output, without the dialect line (OpenAPI 3.1 schema objects are 2020-12 already). */
function generated(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  const { $schema, ...rest } = z.toJSONSchema(schema, { target: "draft-2020-12", io });
  expect($schema).toBe("https://json-schema.org/draft/2020-12/schema");
  return rest;
}

function collectRefs(value: unknown, refs: Set<string> = new Set()): Set<string> {
  if (Array.isArray(value)) for (const item of value) collectRefs(item, refs);
  else if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      if (key === "$ref" && typeof item === "string") refs.add(item);
      else collectRefs(item, refs);
    }
  }
  return refs;
}

describe("buildOpenApiDocument", () => {
  const document = buildOpenApiDocument("https://bench.example.com");

  it("is an OpenAPI 3.1 document that survives JSON serialisation unchanged", () => {
    expect(document.openapi).toBe("3.1.0");
    expect(JSON.parse(JSON.stringify(document))).toEqual(document);
    expect(document.servers).toEqual([{ url: "https://bench.example.com" }]);
    expect(buildOpenApiDocument().servers).toBeUndefined();
  });

  it("documents every method of every route under app/api/v1", () => {
    const documented = Object.entries(document.paths)
      .flatMap(([path, item]) =>
        Object.keys(item)
          .filter((key) => ["get", "post", "put", "patch", "delete"].includes(key))
          .map((method) => `${method.toUpperCase()} ${path}`),
      )
      .sort();
    const routes = routeOperations();
    expect(routes).toContain("POST /api/v1/projects/{project}/runs");
    expect(documented).toEqual(routes);
  });

  it("generates its component schemas from the Zod schemas the routes validate with", () => {
    const schemas = document.components.schemas;
    expect(schemas.RunInput).toEqual(generated(runInputSchema, "input"));
    expect(schemas.RunDocument).toEqual(generated(runDocumentSchema, "output"));
    expect(schemas.RunMetadata).toEqual(generated(runMetadataSchema, "input"));
    expect(schemas.CreateProject).toEqual(generated(createProjectSchema, "input"));
    expect(schemas.CreateToken).toEqual(generated(createTokenSchema, "input"));
    // The descriptions written with .describe() come through.
    expect(schemas.RunInput?.description).toBe(runInputSchema.description);
  });

  it("describes the error envelope with the closed set of codes", () => {
    const envelope = document.components.schemas.ErrorEnvelope as {
      properties: { error: { properties: { code: { enum: string[] } }; required: string[] } };
    };
    expect(envelope.properties.error.properties.code.enum).toEqual(
      expect.arrayContaining(["bad_request", "conflict", "payload_too_large"]),
    );
    expect(envelope.properties.error.required).toEqual(["code", "message", "details"]);
  });

  it("gives the upload its metadata query parameters, headers, body types and error answers", () => {
    const upload = document.paths["/api/v1/projects/{project}/runs"]?.post as {
      parameters: { $ref: string }[];
      requestBody: { content: Record<string, unknown> };
      responses: Record<string, unknown>;
    };
    const parameterNames = upload.parameters.map(({ $ref }) => {
      const parameter = document.components.parameters[$ref.replace("#/components/parameters/", "")];
      return `${String(parameter?.in)}:${String(parameter?.name)}`;
    });
    expect(parameterNames).toEqual(
      expect.arrayContaining(
        [
          "label",
          "round",
          "branch",
          "commit",
          "pr",
          "build_url",
          "started_at",
          "attr.<key>",
          "format",
          "idempotency_key",
        ]
          .map((name) => `query:${name}`)
          .concat(["header:Idempotency-Key", "header:Content-Encoding"]),
      ),
    );
    expect(Object.keys(upload.requestBody.content).sort()).toEqual(
      ["application/json", "application/x-ndjson", "multipart/form-data", "text/csv"].sort(),
    );
    expect(Object.keys(upload.responses).sort()).toEqual([
      "200",
      "201",
      "400",
      "401",
      "403",
      "404",
      "409",
      "413",
      "415",
      "422",
      "429",
      "503",
    ]);
  });

  it("has no dangling $ref", () => {
    for (const pointer of collectRefs(document)) {
      const [, kind, name] = /^#\/components\/(\w+)\/(.+)$/.exec(pointer) ?? [];
      expect(
        kind && name && (document.components as Record<string, Record<string, unknown>>)[kind]?.[name],
        pointer,
      ).toBeTruthy();
    }
  });
});

describe("buildRunInputJsonSchema", () => {
  it("is the run input schema as a standalone JSON Schema with an optional $id", () => {
    const schema = buildRunInputJsonSchema("https://bench.example.com/api/v1/schema/run.json");
    expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(schema.$id).toBe("https://bench.example.com/api/v1/schema/run.json");
    const { $schema: _dialect, $id: _id, title: _title, ...rest } = schema;
    expect(rest).toEqual(generated(runInputSchema, "input"));
    expect(buildRunInputJsonSchema()).not.toHaveProperty("$id");
  });
});

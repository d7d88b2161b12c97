/**
 * The REST API's OpenAPI 3.1 document, assembled from one module per resource, each generated from
 * the same Zod schemas (server/schemas, and the domain's wire formats) that the routes validate their
 * requests with and type their answers by. `z.toJSONSchema` gives JSON Schema draft 2020-12, which
 * OpenAPI 3.1 uses as is; requests are rendered as the input they accept (defaults make fields
 * optional), answers as the output. A test checks real answers of the routes against this document.
 * Served at GET /api/v1/openapi.json; the Benchtrack v1 input format alone at /api/v1/schema/run.json.
 */
import { annotationsResource } from "./annotations";
import { auditResource } from "./audit";
import { baselinesResource } from "./baselines";
import type { ApiResource } from "./building-blocks";
import { ERROR_RESPONSES, jsonContent, ref } from "./building-blocks";
import { compareResource } from "./compare";
import type { JsonSchema } from "./json-schema";
import { toJsonSchema } from "./json-schema";
import { membersResource } from "./members";
import { metaResource } from "./meta";
import { operationsResource } from "./operations";
import { projectsResource } from "./projects";
import { importsResource } from "./imports";
import { incidentsResource } from "./incidents";
import { regressionsResource } from "./regressions";
import { runsResource } from "./runs";
import { shareLinksResource } from "./share-links";
import { slaResource } from "./sla";
import { tokensResource } from "./tokens";
import { transferResource } from "./transfer";
import { webhooksResource } from "./webhooks";

export { errorAnswerRows } from "./building-blocks";
export type { JsonSchema } from "./json-schema";
export { buildBudgetJsonSchema, buildRunInputJsonSchema, toJsonSchema } from "./json-schema";

export interface OpenApiDocument {
  openapi: "3.1.0";
  info: { title: string; version: string; description: string };
  servers?: { url: string }[];
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, unknown>>;
  components: {
    schemas: Record<string, JsonSchema>;
    parameters: Record<string, JsonSchema>;
    responses: Record<string, JsonSchema>;
    securitySchemes: Record<string, JsonSchema>;
  };
}

const RESOURCES: readonly ApiResource[] = [
  projectsResource,
  runsResource,
  importsResource,
  compareResource,
  slaResource,
  baselinesResource,
  regressionsResource,
  incidentsResource,
  tokensResource,
  membersResource,
  webhooksResource,
  annotationsResource,
  shareLinksResource,
  auditResource,
  transferResource,
  metaResource,
  operationsResource,
];

let pathTemplates: { template: string; pattern: RegExp }[] | undefined;

/**
 * The documented path template a request path falls under (`/api/v1/projects/{project}/runs`), the
 * most literal match first; null for a path no route serves. The request log and metrics count under it
 * (server/http/observe.ts), and the answers test checks against it (server/testing/openapi-responses.ts).
 */
export function documentedPathTemplate(pathname: string): string | null {
  pathTemplates ??= Object.keys(buildOpenApiDocument().paths)
    .map((template) => ({
      template,
      pattern: new RegExp(`^${template.replace(/[.]/g, "\\.").replace(/\{[^}]+\}/g, "[^/]+")}/?$`),
      literals: template.split("/").filter((segment) => segment !== "" && !segment.startsWith("{")).length,
    }))
    .sort((a, b) => b.literals - a.literals);
  return pathTemplates.find(({ pattern }) => pattern.test(pathname))?.template ?? null;
}

export function buildOpenApiDocument(baseUrl?: string): OpenApiDocument {
  const paths: OpenApiDocument["paths"] = {};
  const schemas: OpenApiDocument["components"]["schemas"] = {};
  const parameters: OpenApiDocument["components"]["parameters"] = {};
  for (const resource of RESOURCES) {
    // Two resources naming one path, parameter or schema would silently describe one of them with the other's shape.
    const clash = [
      ...Object.keys(resource.paths).filter((name) => name in paths),
      ...Object.keys(resource.parameters ?? {}).filter((name) => name in parameters),
      ...Object.keys(resource.schemas).filter((name) => name in schemas),
    ];
    if (clash.length > 0) throw new Error(`OpenAPI: ${clash.join(", ")} described twice; give each its own name`);
    Object.assign(paths, resource.paths);
    Object.assign(parameters, resource.parameters ?? {});
    for (const [name, { schema, io }] of Object.entries(resource.schemas)) schemas[name] = toJsonSchema(schema, io);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Benchtrack REST API",
      version: "1",
      description:
        "Upload load-test results from CI and read them back. Authentication: `Authorization: Bearer <token>` " +
        "with a project token (on its own project, as its scopes allow: upload, read, triage), the admin token " +
        "(BENCHTRACK_ADMIN_TOKEN: everything) or the read token (BENCHTRACK_READ_TOKEN) for GET calls of private projects; " +
        "public projects read without a token. Which action each call needs: docs/access.md. Errors are always the ErrorEnvelope.",
    },
    ...(baseUrl !== undefined && { servers: [{ url: baseUrl }] }),
    tags: [
      { name: "projects", description: "Services under test." },
      { name: "runs", description: "One upload = one run; immutable." },
      { name: "tokens", description: "Project tokens (its maintainers)." },
      { name: "access", description: "Members of a project and their roles (maintainers), the server's people (server admins): docs/access.md." },
      { name: "meta", description: "Machine-readable descriptions of the API." },
      { name: "operations", description: "Probes and metrics for running the server (outside /api/v1)." },
    ],
    paths,
    components: {
      schemas,
      parameters,
      responses: Object.fromEntries(
        Object.entries(ERROR_RESPONSES).map(([name, { description }]) => [
          name,
          { description, content: jsonContent(ref("schemas", "ErrorEnvelope")) },
        ]),
      ),
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          description:
            "A project token (on its own project, as its scopes allow: upload, read, triage), the admin token (BENCHTRACK_ADMIN_TOKEN) or the read token (BENCHTRACK_READ_TOKEN, GET only). docs/access.md says which action each call needs.",
        },
      },
    },
  };
}

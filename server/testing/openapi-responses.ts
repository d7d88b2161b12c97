import { Ajv2020 } from "ajv/dist/2020.js";
import type { ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { buildOpenApiDocument, documentedPathTemplate } from "../http/openapi";
import type { JsonSchema } from "../http/openapi";

/**
 * Checks a real answer of the REST API against the OpenAPI document the server publishes: the status
 * must be documented for the operation, the content type must be one the document lists, and a JSON
 * body must validate against the documented JSON Schema (Ajv, draft 2020-12, formats checked). The
 * route tests call every handler through `call()` (./rest-client), which runs this on each answer, so
 * the document cannot drift from what the routes return.
 */
const document = buildOpenApiDocument();
const SCHEMA_REF = "#/components/schemas/";
const idOf = (name: string) => `urn:benchtrack:schemas:${name}`;

/** Component references become the ids the component schemas are registered under. */
function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      key === "$ref" && typeof item === "string" && item.startsWith(SCHEMA_REF) ? idOf(item.slice(SCHEMA_REF.length)) : rewriteRefs(item),
    ]),
  );
}

// ajv-formats ships CommonJS: its default export arrives as the module object under some loaders.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule);
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
for (const [name, schema] of Object.entries(document.components.schemas)) ajv.addSchema({ ...(rewriteRefs(schema) as JsonSchema), $id: idOf(name) });

const validators = new Map<string, ValidateFunction>();
function validatorFor(key: string, schema: JsonSchema): ValidateFunction {
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile(rewriteRefs(schema) as JsonSchema);
    validators.set(key, validate);
  }
  return validate;
}

interface DocumentedResponse {
  description?: string;
  content?: Record<string, { schema?: JsonSchema }>;
  $ref?: string;
}

/** The documented path template a request path falls under ("/api/v1/projects/{project}/runs"), or null. */
export function pathTemplateOf(pathname: string): string | null {
  return documentedPathTemplate(pathname);
}

/** Every documented operation with its success statuses, as "METHOD template status". */
export function documentedSuccesses(): string[] {
  return Object.entries(document.paths).flatMap(([template, item]) =>
    Object.entries(item)
      .filter(([method]) => ["get", "post", "put", "patch", "delete"].includes(method))
      .flatMap(([method, operation]) =>
        Object.keys((operation as { responses: Record<string, unknown> }).responses)
          .filter((status) => status.startsWith("2"))
          .map((status) => `${method.toUpperCase()} ${template} ${status}`),
      ),
  );
}

/** Why the answer does not match the document, or null when it does. */
export async function checkAgainstOpenApi(method: string, pathname: string, response: Response): Promise<string | null> {
  const template = documentedPathTemplate(pathname);
  if (template === null) return `${method} ${pathname}: no such path in the OpenAPI document`;
  const operation = document.paths[template]?.[method.toLowerCase()] as { responses: Record<string, DocumentedResponse> } | undefined;
  if (!operation) return `${method} ${template}: not documented`;
  const listed = operation.responses[String(response.status)];
  if (!listed) return `${method} ${template}: status ${response.status} is not documented`;
  const documented: DocumentedResponse = listed.$ref
    ? (document.components.responses[listed.$ref.split("/").pop() ?? ""] as DocumentedResponse)
    : listed;

  const body = await response.clone().text();
  if (!documented.content) return body === "" ? null : `${method} ${template} ${response.status}: documented without a body, got one`;
  const contentType = (response.headers.get("content-type") ?? "").split(";")[0]!.trim();
  const content = documented.content[contentType] ?? (contentType.endsWith("+json") ? undefined : documented.content["application/octet-stream"]);
  if (!content) return `${method} ${template} ${response.status}: content type "${contentType}" is not documented`;
  if (contentType !== "application/json" || !content.schema) return null;
  const validate = validatorFor(`${method} ${template} ${response.status}`, content.schema);
  if (validate(JSON.parse(body))) return null;
  const problems = (validate.errors ?? []).slice(0, 5).map((error) => `${error.instancePath || "(body)"} ${error.message ?? ""}`);
  return `${method} ${template} ${response.status}: the body does not match the documented schema: ${problems.join("; ")}`;
}

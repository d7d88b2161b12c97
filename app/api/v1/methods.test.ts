import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// Every REST route answers every method: the ones it serves, and a 405 in the error envelope (with
// Allow) for the others, never Next's empty 405 (server/http/route.ts:otherMethods).
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

function routeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    return entry.name === "route.ts" ? [full] : [];
  });
}

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response> | Response;

describe("methods a REST route does not serve", () => {
  const files = routeFiles(import.meta.dirname);

  it("are each answered by the route itself", async () => {
    expect(files.length).toBeGreaterThan(15);
    for (const file of files) {
      const handlers = (await import(file)) as Record<string, unknown>;
      const missing = METHODS.filter((method) => typeof handlers[method] !== "function");
      expect({ file: path.relative(import.meta.dirname, file), missing }).toEqual({ file: path.relative(import.meta.dirname, file), missing: [] });
    }
  });

  it("answer 405 in the error envelope, with Allow", async () => {
    const runs = (await import("./projects/[project]/runs/route")) as unknown as Record<string, Handler>;
    const request = new Request("http://localhost/api/v1/projects/p/runs", { method: "DELETE" });
    const response = await runs.DELETE!(request, { params: Promise.resolve({ project: "p" }) });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, POST, HEAD");
    expect(await response.json()).toEqual({
      error: {
        code: "method_not_allowed",
        message: "DELETE is not allowed here; use GET or POST",
        details: [{ path: "method", message: "allowed: GET, POST, HEAD" }],
      },
    });
  });
});

import { describe, expect, it } from "vitest";
import { GET as health } from "@/app/api/health/route";
import { captureLogLines, prettyLogLine } from "../services/platform";
import { loggedPath, requestIdOf, restRouteTemplate } from "./observe";

describe("requestIdOf", () => {
  it("keeps a sane X-Request-Id and draws a new one for anything else", () => {
    expect(requestIdOf(new Headers({ "x-request-id": "gh-123:run.4_a-b" }))).toBe("gh-123:run.4_a-b");
    expect(requestIdOf(new Headers({ "x-request-id": "x".repeat(128) }))).toBe("x".repeat(128));
    for (const insane of ["x".repeat(129), "a b", "a/b", "<script>", "a\tb", ""]) {
      expect(requestIdOf(new Headers({ "x-request-id": insane }))).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
    expect(requestIdOf(new Headers())).not.toBe(requestIdOf(new Headers()));
  });
});

describe("loggedPath", () => {
  it("leaves the share link out of the logged path and query", () => {
    expect(loggedPath(new URL("http://x/api/v1/projects/p/runs/r?share=SECRETSECRETSECRETSECR&format=markdown"))).toBe("/api/v1/projects/p/runs/r?format=markdown");
    expect(loggedPath(new URL("http://x/api/v1/projects/p/runs?share=abc"))).toBe("/api/v1/projects/p/runs");
  });

  it("logs only the provider's error on the sign-in callback, never its code or state", () => {
    expect(loggedPath(new URL("http://x/api/auth/oidc/callback?code=SECRET-CODE&state=SECRET-STATE&iss=http%3A%2F%2Fidp"))).toBe("/api/auth/oidc/callback");
    expect(loggedPath(new URL("http://x/api/auth/oidc/callback?error=access_denied&state=SECRET-STATE"))).toBe("/api/auth/oidc/callback?error=access_denied");
    expect(loggedPath(new URL("http://x/api/v1/projects/p/incidents?state=open"))).toBe("/api/v1/projects/p/incidents?state=open");
  });
});

describe("restRouteTemplate", () => {
  it("names the route's folder, never the path, and prefers literal segments", () => {
    expect(restRouteTemplate("/api/v1/projects/listings/runs")).toBe("/api/v1/projects/[project]/runs");
    expect(restRouteTemplate("/api/v1/projects/runs/runs")).toBe("/api/v1/projects/[project]/runs");
    expect(restRouteTemplate("/api/v1/projects/listings/runs/r123/verdict")).toBe("/api/v1/projects/[project]/runs/[id]/verdict");
    expect(restRouteTemplate("/api/v1/projects")).toBe("/api/v1/projects");
    expect(restRouteTemplate("/api/health")).toBe("/api/health");
    expect(restRouteTemplate("/api/v1/no/such/thing")).toBe("unmatched");
  });
});

describe("prettyLogLine", () => {
  it("writes a JSON line as time, level, message and fields", () => {
    const line = JSON.stringify({ level: 30, time: Date.UTC(2026, 0, 2, 3, 4, 5, 6), pid: 1, msg: "request", method: "GET", route: "/api/health", status: 200, note: "two words" });
    expect(prettyLogLine(line)).toBe('03:04:05.006 INFO  request  method=GET route=/api/health status=200 note="two words"\n');
  });
});

describe("GET /api/health", () => {
  it("answers without opening the database, even one that cannot be reached", async () => {
    const saved = process.env.DATABASE_URL;
    process.env.DATABASE_URL = "postgres://nobody@127.0.0.1:1/nowhere";
    const state = globalThis as unknown as { benchtrackDb?: unknown };
    const opened = state.benchtrackDb;
    const capture = captureLogLines();
    try {
      const response = await health(new Request("http://localhost/api/health"));
      expect(response.status).toBe(200);
      expect(((await response.json()) as { status: string }).status).toBe("ok");
      expect(state.benchtrackDb).toBe(opened);
    } finally {
      capture.stop();
      if (saved === undefined) delete process.env.DATABASE_URL;
      else process.env.DATABASE_URL = saved;
    }
    expect(capture.lines).toHaveLength(1);
    expect(JSON.parse(capture.lines[0]!)).toMatchObject({ msg: "request", method: "GET", route: "/api/health", status: 200, caller: "anonymous" });
  });
});

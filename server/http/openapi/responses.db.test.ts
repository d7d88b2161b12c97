import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GET as getOpenApi } from "@/app/api/v1/openapi.json/route";
import { DELETE as deleteAnnotation } from "@/app/api/v1/projects/[project]/annotations/[annotationId]/route";
import { GET as listMarkers, POST as postMarker } from "@/app/api/v1/projects/[project]/annotations/route";
import { GET as getBadge } from "@/app/api/v1/projects/[project]/badge.svg/route";
import { DELETE as unpin, GET as listPins, PUT as pin } from "@/app/api/v1/projects/[project]/baseline/route";
import { GET as compare } from "@/app/api/v1/projects/[project]/compare/route";
import { GET as exportProject } from "@/app/api/v1/projects/[project]/export/route";
import { POST as importProject } from "@/app/api/v1/projects/[project]/import/route";
import { GET as getIncident, PATCH as patchIncident } from "@/app/api/v1/projects/[project]/incidents/[number]/route";
import { GET as getAlertPrecision } from "@/app/api/v1/projects/[project]/incidents/precision/route";
import { GET as listIncidents, PATCH as patchIncidents } from "@/app/api/v1/projects/[project]/incidents/route";
import { PATCH as patchRegression } from "@/app/api/v1/projects/[project]/regressions/[id]/route";
import { GET as listRegressions } from "@/app/api/v1/projects/[project]/regressions/route";
import { POST as importHistory } from "@/app/api/v1/projects/[project]/import/[source]/route";
import { GET as getAudit } from "@/app/api/v1/projects/[project]/audit/route";
import { GET as getServerAudit } from "@/app/api/v1/audit/route";
import { DELETE as deleteProject, GET as getProject, PATCH as patchProject } from "@/app/api/v1/projects/[project]/route";
import { GET as listAnnotations, POST as annotate } from "@/app/api/v1/projects/[project]/runs/[id]/annotations/route";
import { DELETE as revokeShareLink } from "@/app/api/v1/projects/[project]/share-links/[id]/route";
import { GET as listShareLinks, POST as createShareLink } from "@/app/api/v1/projects/[project]/share-links/route";
import { GET as getRaw } from "@/app/api/v1/projects/[project]/runs/[id]/raw/route";
import { DELETE as deleteRun, GET as getRun } from "@/app/api/v1/projects/[project]/runs/[id]/route";
import { GET as getVerdict } from "@/app/api/v1/projects/[project]/runs/[id]/verdict/route";
import { GET as listRuns, POST as uploadRun } from "@/app/api/v1/projects/[project]/runs/route";
import { GET as getSla, PUT as putSla } from "@/app/api/v1/projects/[project]/sla/route";
import { DELETE as revokeToken } from "@/app/api/v1/projects/[project]/tokens/[id]/route";
import { GET as listTokens, POST as createToken } from "@/app/api/v1/projects/[project]/tokens/route";
import { GET as getWebhook, PUT as putWebhook } from "@/app/api/v1/projects/[project]/webhook/route";
import { GET as listProjects, POST as createProject } from "@/app/api/v1/projects/route";
import { GET as getRunSchema } from "@/app/api/v1/schema/run.json/route";
import { GET as getBudgetSchema } from "@/app/api/v1/schema/benchtrack.json/route";
import { GET as getHealth } from "@/app/api/health/route";
import { GET as getReady } from "@/app/api/ready/route";
import { GET as getMetrics } from "@/app/metrics/route";
import { GET as listMembers, POST as grantMember } from "@/app/api/v1/projects/[project]/members/route";
import { DELETE as removeMember, PATCH as updateMember } from "@/app/api/v1/projects/[project]/members/[id]/route";
import { GET as listUsers } from "@/app/api/v1/users/route";
import { PATCH as patchUser } from "@/app/api/v1/users/[id]/route";
import { getDb } from "@/server/db";
import { markWorkers } from "@/server/services/platform";
import { uniqueSlug } from "@/server/testing/databases";
import { documentedSuccesses, pathTemplateOf } from "@/server/testing/openapi-responses";
import { call, setUpRouteTestDatabase } from "@/server/testing/rest-client";
import type { CallOptions } from "@/server/testing/rest-client";
import { runQueuedJobsNow } from "@/server/testing/jobs";

/**
 * Every success answer the OpenAPI document describes, produced by the real route and checked
 * against the document (call() checks every answer; see server/testing/openapi-responses.ts). The
 * last test fails when a documented operation, or a success status of one, is never exercised here.
 */
const FIXTURES = path.resolve(import.meta.dirname, "../../domain/parsers/fixtures");
const fixture = (relative: string) => readFileSync(path.join(FIXTURES, relative));

type Handler<P> = Parameters<typeof call<P>>[0];
const seen = new Set<string>();

async function exercise<P>(handler: Handler<P>, pathname: string, params: P, options: CallOptions = {}) {
  const response = await call(handler, pathname, params, options);
  seen.add(`${options.method ?? "GET"} ${pathTemplateOf(pathname)} ${response.status}`);
  expect(response.status, `${options.method ?? "GET"} ${pathname}: ${await response.clone().text()}`).toBeLessThan(300);
  return response;
}

function nightly(p95: number, hour: number) {
  return JSON.stringify({
    schema: "benchtrack/v1",
    label: "nightly",
    startedAt: new Date(Date.UTC(2026, 10, 1, hour)).toISOString(),
    endpoints: [{ name: "GetListing", requests: 1000, failures: 0, latency: { unit: "ms", p50: p95 / 2, p95 } }],
  });
}
const STEP = [20.1, 19.8, 20.4, 19.9, 20.2, 20.0, 19.7, 20.3, 20.1, 19.9, 20.2, 20.0, 26.1, 26.4, 25.9, 26.3, 26.0, 26.2, 26.5];

setUpRouteTestDatabase();

describe("every answer the OpenAPI document describes", () => {
  const slug = uniqueSlug("documented");
  const api = `/api/v1/projects/${slug}`;
  const project = { project: slug };
  let runId = "";

  it("projects, settings and the SLA policy", async () => {
    await exercise(createProject, "/api/v1/projects", {}, { method: "POST", body: JSON.stringify({ slug, name: "Documented" }) });
    await exercise(listProjects, "/api/v1/projects", {});
    await exercise(getProject, api, project);
    await exercise(patchProject, api, project, { method: "PATCH", body: JSON.stringify({ minEffectPct: 5 }) });
    await exercise(putSla, `${api}/sla`, project, {
      method: "PUT",
      body: JSON.stringify({ targets: [{ metric: "p95", op: "<=", threshold: 25, unit: "ms" }] }),
    });
    await exercise(getSla, `${api}/sla`, project);
  });

  it("uploads (created, replayed, Markdown), runs, raw files, verdicts, regressions", async () => {
    for (const [hour, p95] of STEP.entries()) {
      const response = await exercise(uploadRun, `${api}/runs`, project, { method: "POST", body: nightly(p95, hour), query: { branch: "main" } });
      runId = ((await response.json()) as { id: string }).id;
    }
    const once = { method: "POST", body: fixture("k6/baseline/round1/summary.json"), headers: { "idempotency-key": "documented-1" } };
    await exercise(uploadRun, `${api}/runs`, project, once);
    await exercise(uploadRun, `${api}/runs`, project, once);
    await exercise(uploadRun, `${api}/runs`, project, { ...once, headers: { "idempotency-key": "documented-2", accept: "text/markdown" } });

    await exercise(listRuns, `${api}/runs`, project, { query: { label: "nightly", limit: "5" } });
    await exercise(getRun, `${api}/runs/${runId}`, { ...project, id: runId });
    await exercise(getRaw, `${api}/runs/${runId}/raw`, { ...project, id: runId });
    await exercise(getVerdict, `${api}/runs/${runId}/verdict`, { ...project, id: runId });
    await exercise(getVerdict, `${api}/runs/${runId}/verdict`, { ...project, id: runId }, { headers: { accept: "text/markdown" } });

    const form = new FormData();
    for (const method of ["GetListing", "ListListings"]) {
      form.append(method, new Blob([new Uint8Array(fixture(`ghz/baseline/round1/${method}.json`))]), `${method}.json`);
    }
    const multi = (await (await exercise(uploadRun, `${api}/runs`, project, { method: "POST", body: form })).json()) as { id: string };
    await exercise(getRaw, `${api}/runs/${multi.id}/raw`, { ...project, id: multi.id });

    await runQueuedJobsNow(); // change-point detection runs as a job after each upload
    const regressions = (await (await exercise(listRegressions, `${api}/regressions`, project)).json()) as { id: string }[];
    expect(regressions.length).toBeGreaterThan(0);
    const id = regressions[0]!.id;
    await exercise(patchRegression, `${api}/regressions/${id}`, { ...project, id }, { method: "PATCH", body: JSON.stringify({ status: "acknowledged" }) });

    const incidents = (await (await exercise(listIncidents, `${api}/incidents`, project, { query: { state: "all" } })).json()) as { number: number }[];
    expect(incidents.length).toBeGreaterThan(0);
    const number = String(incidents[0]!.number);
    await exercise(getIncident, `${api}/incidents/${number}`, { ...project, number });
    await exercise(patchIncident, `${api}/incidents/${number}`, { ...project, number }, { method: "PATCH", body: JSON.stringify({ note: "seen" }) });
    await exercise(patchIncidents, `${api}/incidents`, project, { method: "PATCH", body: JSON.stringify({ numbers: [Number(number)], state: "accepted" }) });
    await exercise(getAlertPrecision, `${api}/incidents/precision`, project);
  });

  it("comparisons (JSON and Markdown) and the badge", async () => {
    const query = { base: "label:nightly", head: runId, last: "5" };
    await exercise(compare, `${api}/compare`, project, { query });
    await exercise(compare, `${api}/compare`, project, { query, headers: { accept: "text/markdown" } });
    await exercise(getBadge, `${api}/badge.svg`, project);
  });

  it("baselines, tokens, webhooks, annotations and share links", async () => {
    await exercise(pin, `${api}/baseline`, project, { method: "PUT", body: JSON.stringify({ forLabel: "nightly", runIds: [runId] }) });
    await exercise(listPins, `${api}/baseline`, project);
    await exercise(unpin, `${api}/baseline`, project, { method: "DELETE", query: { for_label: "nightly" } });

    const token = (await (await exercise(createToken, `${api}/tokens`, project, { method: "POST", body: JSON.stringify({ name: "ci", scopes: ["upload", "read"], expiresInDays: 30 }) })).json()) as { id: string };
    await exercise(listTokens, `${api}/tokens`, project);
    await exercise(revokeToken, `${api}/tokens/${token.id}`, { ...project, id: token.id }, { method: "DELETE" });

    await exercise(putWebhook, `${api}/webhook`, project, { method: "PUT", body: JSON.stringify({ url: "https://hooks.example.com/benchtrack" }) });
    await exercise(getWebhook, `${api}/webhook`, project);

    const note = (await (await exercise(annotate, `${api}/runs/${runId}/annotations`, { ...project, id: runId }, { method: "POST", body: JSON.stringify({ text: "deployed v2.3" }) })).json()) as { id: string };
    await exercise(listAnnotations, `${api}/runs/${runId}/annotations`, { ...project, id: runId });
    await exercise(deleteAnnotation, `${api}/annotations/${note.id}`, { ...project, annotationId: note.id }, { method: "DELETE" });
    await exercise(postMarker, `${api}/annotations`, project, { method: "POST", body: JSON.stringify({ text: "v1.4", kind: "deploy", at: "2026-11-01T10:00:00Z" }) });
    await exercise(listMarkers, `${api}/annotations`, project);
    const link = (await (await exercise(createShareLink, `${api}/share-links`, project, { method: "POST", body: JSON.stringify({ run: runId }) })).json()) as { url: string };
    await exercise(listShareLinks, `${api}/share-links`, project);
    const linkId = new URL(link.url).pathname.split("/").pop()!;
    await exercise(revokeShareLink, `${api}/share-links/${linkId}`, { ...project, id: linkId }, { method: "DELETE" });
  });

  it("members (created and changed by a second grant) and the server's people", async () => {
    const grant = { method: "POST", body: JSON.stringify({ kind: "email", subject: "ada@example.com", role: "triager" }) };
    const member = (await (await exercise(grantMember, `${api}/members`, project, grant)).json()) as { id: string };
    await exercise(grantMember, `${api}/members`, project, { ...grant, body: JSON.stringify({ kind: "email", subject: "ada@example.com", role: "viewer" }) });
    await exercise(listMembers, `${api}/members`, project);
    await exercise(updateMember, `${api}/members/${member.id}`, { ...project, id: member.id }, { method: "PATCH", body: JSON.stringify({ role: "maintainer" }) });
    await exercise(removeMember, `${api}/members/${member.id}`, { ...project, id: member.id }, { method: "DELETE" });
    const user = await (await getDb()).user.create({ data: { issuer: "https://idp.test", subject: uniqueSlug("documented"), email: `${uniqueSlug("ada")}@example.com`, name: "Ada" }, select: { id: true } });
    await exercise(listUsers, "/api/v1/users", {});
    await exercise(patchUser, `/api/v1/users/${user.id}`, { id: user.id }, { method: "PATCH", body: JSON.stringify({ serverAdmin: true }) });
  });

  it("history imports (created, then nothing new)", async () => {
    const dataJs = readFileSync(path.resolve(import.meta.dirname, "../../domain/parsers/github-action-benchmark/examples/go-conventionalcommit.data.js"));
    const params = { ...project, source: "github-action-benchmark" };
    await exercise(importHistory, `${api}/import/github-action-benchmark`, params, { method: "POST", body: dataJs });
    await exercise(importHistory, `${api}/import/github-action-benchmark`, params, { method: "POST", body: dataJs });
  });

  it("a project's export, and the file imported back (nothing new)", async () => {
    const file = await (await exercise(exportProject, `${api}/export`, project)).text();
    const imported = await exercise(importProject, `${api}/import`, project, { method: "POST", body: file });
    expect(((await imported.json()) as { runs: { created: number } }).runs.created).toBe(0);
  });

  it("deleting a run and the project, and the audit log that records it", async () => {
    const runs = (await (await exercise(listRuns, `${api}/runs`, project, { query: { limit: "1" } })).json()) as { runs: { id: string }[] };
    const id = runs.runs[0]!.id;
    await exercise(deleteRun, `${api}/runs/${id}`, { ...project, id }, { method: "DELETE" });
    await exercise(deleteProject, api, project, { method: "DELETE" });
    await exercise(getAudit, `${api}/audit`, project, { query: { limit: "10" } });
    await exercise(getServerAudit, "/api/v1/audit", {}, { query: { limit: "5", action: "project.delete" } });
  });

  it("the machine-readable descriptions", async () => {
    await exercise(getOpenApi, "/api/v1/openapi.json", {});
    await exercise(getRunSchema, "/api/v1/schema/run.json", {});
    await exercise(getBudgetSchema, "/api/v1/schema/benchtrack.json", {});
  });

  it("the operator's routes: liveness, readiness (the workers marked running, as a serving process does) and metrics", async () => {
    await exercise(getHealth, "/api/health", {});
    markWorkers("running");
    try {
      await exercise(getReady, "/api/ready", {});
    } finally {
      markWorkers("not-started");
    }
    await exercise(getMetrics, "/metrics", {});
  });

  it("left no documented success answer unexercised", () => {
    expect(documentedSuccesses().filter((answer) => !seen.has(answer)).sort()).toEqual([]);
  });
});

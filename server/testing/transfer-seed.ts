import { readFileSync } from "node:fs";
import { expect } from "vitest";
import { POST as annotateRun } from "@/app/api/v1/projects/[project]/runs/[id]/annotations/route";
import { PUT as pinBaseline } from "@/app/api/v1/projects/[project]/baseline/route";
import { POST as uploadRun } from "@/app/api/v1/projects/[project]/runs/route";
import { PUT as putSla } from "@/app/api/v1/projects/[project]/sla/route";
import { runQueuedJobsNow } from "./jobs";
import { call } from "./rest-client";
import { createProjectThroughApi } from "./seed";

/**
 * A project with a bit of everything an export carries, put in place through the public API as CI and
 * an admin would: real k6 summaries (three rounds of two commits, one upload retried with its
 * Idempotency-Key), a Go benchmark run, a k6 NDJSON stream, a stepped series that the real change-point
 * detection turns into an incident, an annotation, a baseline pin and an SLA policy.
 */

const FIXTURES = "/work/shared/fixtures";
const K6_ROUNDS = [1, 2, 3].map((round) => readFileSync(`${FIXTURES}/k6/baseline/round${round}/summary.json`));
const K6_NDJSON = readFileSync(`${FIXTURES}/k6/baseline/short-ndjson/points.ndjson`);
const GO_BENCH = readFileSync(`${FIXTURES}/micro/go/baseline/gobench.txt`);

export interface SeededProject {
  slug: string;
  /** Run ids by what they are. */
  k6Runs: string[];
  goRun: string;
  steppedRuns: string[];
}

async function upload(slug: string, body: BodyInit, query: Record<string, string>, headers: Record<string, string> = {}): Promise<string> {
  const response = await call(uploadRun, `/api/v1/projects/${slug}/runs`, { project: slug }, { method: "POST", body, query, headers });
  expect(response.status, await response.clone().text()).toBeLessThan(300);
  return ((await response.json()) as { id: string }).id;
}

export async function seedTransferProject(slug: string): Promise<SeededProject> {
  await createProjectThroughApi(slug);
  const sla = await call(putSla, `/api/v1/projects/${slug}/sla`, { project: slug }, {
    method: "PUT",
    body: JSON.stringify({ targets: [{ metric: "p95", op: "<=", threshold: 800, unit: "ms" }] }),
  });
  expect(sla.status, await sla.clone().text()).toBe(200);

  const k6Runs: string[] = [];
  for (const [commitIndex, commit] of ["a1b2c3d4e5f6", "b2c3d4e5f6a1"].entries()) {
    for (const [index, body] of K6_ROUNDS.entries()) {
      const started = new Date(Date.UTC(2026, 2, 1 + commitIndex, 10, index)).toISOString();
      const headers = { "Idempotency-Key": `k6-${commit}-${index + 1}` };
      k6Runs.push(
        await upload(slug, new Uint8Array(body), { branch: "main", commit, round: String(index + 1), label: "checkout", started_at: started }, headers),
      );
    }
  }
  // A retry of the last upload: the same run, not a new one.
  const retried = await upload(
    slug,
    new Uint8Array(K6_ROUNDS[2]!),
    { branch: "main", commit: "b2c3d4e5f6a1", round: "3", label: "checkout", started_at: new Date(Date.UTC(2026, 2, 2, 10, 2)).toISOString() },
    { "Idempotency-Key": "k6-b2c3d4e5f6a1-3" },
  );
  expect(retried).toBe(k6Runs[5]);
  k6Runs.push(await upload(slug, new Uint8Array(K6_NDJSON), { branch: "feature/x", label: "stream" }));
  const goRun = await upload(slug, new Uint8Array(GO_BENCH), { branch: "main", commit: "c3d4e5f6a1b2", testbed: "ci-4core" });

  // A step of 30% on main: the detection job opens an incident.
  const steppedRuns: string[] = [];
  for (let index = 0; index < 19; index++) {
    const factor = index < 12 ? 1 : 1.3;
    const p95 = 100 * factor * (1 + 0.01 * Math.sin(index * 1.7));
    const document = {
      schema: "benchtrack/v1",
      tool: "loadgen",
      label: "nightly",
      startedAt: new Date(Date.UTC(2026, 0, 1, index)).toISOString(),
      endpoints: [{ name: "GET /listings", requests: 10_000, failures: 0, latency: { unit: "ms", p50: p95 / 3, p95, p99: p95 * 1.4 } }],
    };
    steppedRuns.push(await upload(slug, JSON.stringify(document), { branch: "main" }));
  }
  expect((await runQueuedJobsNow()).failed).toBe(0);

  const annotated = await call(annotateRun, `/api/v1/projects/${slug}/runs/${steppedRuns[12]}/annotations`, { project: slug, id: steppedRuns[12]! }, {
    method: "POST",
    body: JSON.stringify({ text: "deployed v2.3", kind: "deploy" }),
  });
  expect(annotated.status, await annotated.clone().text()).toBe(201);
  const pinned = await call(pinBaseline, `/api/v1/projects/${slug}/baseline`, { project: slug }, {
    method: "PUT",
    body: JSON.stringify({ forLabel: "checkout", runIds: k6Runs.slice(0, 3) }),
  });
  expect(pinned.status, await pinned.clone().text()).toBeLessThan(300);
  return { slug, k6Runs, goRun, steppedRuns };
}

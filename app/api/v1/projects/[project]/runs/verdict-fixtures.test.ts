import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, targetFromEnv } from "@/server/db";
import { migrateDatabase } from "@/server/migrate/apply";
import { uniqueSlug } from "@/server/testing/databases";
import { call, configureTestEnvironment } from "@/server/testing/rest-client";
import { POST as uploadRun } from "./route";

// The CI gate on real tool outputs (issue "Truthful verdicts", done-when 1): the bundled baseline
// rounds of k6, Locust and ghz are the same service measured three times, so uploading them in order
// under one label on main must pass every time; each ManagedAsync round (a real slowdown) uploaded on
// a PR branch right after must fail. Runs on the embedded database and, with DATABASE_URL, PostgreSQL.
const FIXTURES = path.resolve(import.meta.dirname, "../../../../../../server/domain/parsers/fixtures");
const TOOLS = {
  k6: { folder: "k6", files: ["summary.json"] },
  locust: { folder: "locust", files: ["locust_stats.csv", "locust_stats_history.csv", "locust_failures.csv", "locust_exceptions.csv"] },
  ghz: { folder: "ghz", files: ["GetListing.json", "ListListings.json", "SearchListings.json", "CheckStockAvailability.json", "GetAllCategories.json"] },
} as const;
type Tool = keyof typeof TOOLS;

function body(tool: Tool, variant: "baseline" | "managedasync", round: number): BodyInit {
  const { folder, files } = TOOLS[tool];
  const read = (name: string) => readFileSync(path.join(FIXTURES, folder, variant, `round${round}`, name));
  if (files.length === 1) return read(files[0]);
  const form = new FormData();
  for (const name of files) form.append(name, new Blob([read(name)]), name);
  return form;
}

beforeAll(async () => {
  await configureTestEnvironment();
  await migrateDatabase(targetFromEnv());
});

afterAll(async () => {
  await closeDb();
});

describe("the CI verdict on the bundled real rounds", () => {
  const slug = uniqueSlug("gate");
  let hour = 0;
  const upload = async (tool: Tool, variant: "baseline" | "managedasync", round: number, branch: string) => {
    const response = await call(uploadRun, `/api/v1/projects/${slug}/runs`, { project: slug }, {
      method: "POST",
      body: body(tool, variant, round),
      query: { label: "nightly", branch, round: String(round), started_at: new Date(Date.UTC(2026, 0, 1, hour++)).toISOString() },
    });
    expect(response.status).toBe(201);
    return (await response.json()) as { verdict: string; reasons: string[]; comparison: { baseline: { how: string; runs: unknown[] } } };
  };

  it("passes every unchanged baseline round, each judged against its own tool's earlier rounds", async () => {
    for (const round of [1, 2, 3]) {
      for (const tool of Object.keys(TOOLS) as Tool[]) {
        const answer = await upload(tool, "baseline", round, "main");
        expect({ tool, round, verdict: answer.verdict, reasons: answer.reasons }).toEqual({ tool, round, verdict: "pass", reasons: [] });
        expect(answer.comparison.baseline.runs).toHaveLength(round - 1);
        expect(answer.comparison.baseline.how).toContain(`${tool} run`);
      }
    }
  }, 120_000);

  it("fails each tool's ManagedAsync round uploaded on a PR branch against those baselines", async () => {
    for (const tool of Object.keys(TOOLS) as Tool[]) {
      const answer = await upload(tool, "managedasync", 1, `feature/${tool}`);
      expect({ tool, verdict: answer.verdict }).toEqual({ tool, verdict: "fail" });
      expect(answer.comparison.baseline.runs).toHaveLength(3);
      expect(answer.reasons[0]).toMatch(/regressed against the baseline \(the last 3 \w+ runs labelled nightly on main\)/);
    }
  }, 120_000);
});

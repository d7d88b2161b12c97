import { describe, expect, it } from "vitest";
import type { BudgetFile } from "./budget";
import { budgetAnswer, describeBudget, resolveBudget, settingsWithBudget, slaPolicyWithBudget } from "./budget";
import type { SlaPolicy } from "../sla/policy";

const target = (threshold: number) => ({
  metric: "p95" as const,
  op: "<=" as const,
  threshold,
  scope: "endpoints" as const,
  weight: 1,
});
const policy = (threshold: number): SlaPolicy => ({ targets: [target(threshold)] });
const SOURCE = { path: "benchtrack.json", commit: "3f2a9c1e07b4aa" };

const FILE: BudgetFile = {
  sla: policy(300),
  gate: { metric: "p95", minEffectPct: 5 },
  labels: { nightly: { gate: { minEffectPct: 10, inconclusive: "fail" } } },
  projects: {
    listings: {
      sla: policy(100),
      gate: { alpha: 0.05 },
      labels: { nightly: { sla: { targets: [] }, gate: { minEffectPct: 20 } } },
    },
  },
};

describe("resolveBudget", () => {
  it("takes the top level for a project and label the file does not name", () => {
    expect(resolveBudget(FILE, SOURCE, "other", "smoke")).toEqual({
      source: SOURCE,
      sla: policy(300),
      gate: { metric: "p95", minEffectPct: 5 },
    });
  });

  it("lets a label override the top level field by field", () => {
    expect(resolveBudget(FILE, SOURCE, "other", "nightly")?.gate).toEqual({
      metric: "p95",
      minEffectPct: 10,
      inconclusive: "fail",
    });
  });

  it("lets a project override the shared labels, and its own labels override it", () => {
    expect(resolveBudget(FILE, SOURCE, "listings", null)).toEqual({
      source: SOURCE,
      sla: policy(100),
      gate: { metric: "p95", minEffectPct: 5, alpha: 0.05 },
    });
    // projects.listings.labels.nightly › projects.listings › labels.nightly › top level
    expect(resolveBudget(FILE, SOURCE, "listings", "nightly")).toEqual({
      source: SOURCE,
      sla: { targets: [] },
      gate: { metric: "p95", minEffectPct: 20, inconclusive: "fail", alpha: 0.05 },
    });
  });

  it("is null when the file sets nothing for the run (Settings judge it)", () => {
    expect(resolveBudget({}, SOURCE, "listings", "nightly")).toBeNull();
    expect(resolveBudget({ projects: { other: { gate: { alpha: 0.1 } } } }, SOURCE, "listings", null)).toBeNull();
    expect(resolveBudget({ labels: { nightly: { gate: { alpha: 0.1 } } } }, SOURCE, "listings", null)).toBeNull();
  });
});

describe("settingsWithBudget and slaPolicyWithBudget", () => {
  const settings = { slug: "listings", minEffectPct: 5, alpha: 0.01, gateMetric: "auto" };

  it("sets over Settings only what the budget sets", () => {
    const budget = { source: SOURCE, sla: null, gate: { alpha: 0.05 } };
    expect(settingsWithBudget(settings, budget)).toEqual({
      slug: "listings",
      minEffectPct: 5,
      alpha: 0.05,
      gateMetric: "auto",
    });
    expect(slaPolicyWithBudget(policy(50), budget)).toEqual(policy(50));
  });

  it("leaves Settings as they are without a budget", () => {
    expect(settingsWithBudget(settings, null)).toBe(settings);
    expect(slaPolicyWithBudget(null, undefined)).toBeNull();
  });

  it("grades against the budget's targets, an empty list meaning no SLA", () => {
    expect(slaPolicyWithBudget(policy(50), { source: SOURCE, sla: { targets: [] }, gate: {} })).toEqual({
      targets: [],
    });
  });
});

describe("describeBudget", () => {
  it.each([
    [null, "Budget from Settings"],
    [{ source: SOURCE, sla: policy(1), gate: { alpha: 0.05 } }, "Budget from benchtrack.json at 3f2a9c1"],
    [
      { source: { path: "perf/benchtrack.json", commit: null }, sla: policy(1), gate: { metric: "p99" } },
      "Budget from perf/benchtrack.json",
    ],
    [
      { source: SOURCE, sla: null, gate: { alpha: 0.05 } },
      "Budget from benchtrack.json at 3f2a9c1 (SLA from Settings)",
    ],
    [
      { source: SOURCE, sla: policy(1), gate: { inconclusive: "fail" as const } },
      "Budget from benchtrack.json at 3f2a9c1 (gate from Settings)",
    ],
  ])("%j reads %s", (budget, text) => {
    expect(describeBudget(budget)).toBe(text);
  });

  it("answers the source, path, commit and inconclusive policy", () => {
    expect(budgetAnswer({ source: SOURCE, sla: null, gate: { inconclusive: "fail" } })).toEqual({
      source: "file",
      path: "benchtrack.json",
      commit: "3f2a9c1e07b4aa",
      inconclusive: "fail",
      description: "Budget from benchtrack.json at 3f2a9c1 (SLA and gate from Settings)",
    });
    expect(budgetAnswer(null)).toEqual({
      source: "settings",
      path: null,
      commit: null,
      inconclusive: null,
      description: "Budget from Settings",
    });
  });
});

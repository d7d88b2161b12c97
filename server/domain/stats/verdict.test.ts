import { describe, expect, it } from "vitest";
import { decideVerdict, DEFAULT_VERDICT_OPTIONS } from "./verdict";

describe("decideVerdict", () => {
  const options = DEFAULT_VERDICT_OPTIONS;

  it("regresses on a large, significant change in the bad direction", () => {
    expect(decideVerdict({ better: "lower", deltaPct: 12, pValue: 0.001 }, options).verdict).toBe("regressed");
    expect(decideVerdict({ better: "higher", deltaPct: -12, pValue: 0.001 }, options).verdict).toBe("regressed");
  });

  it("improves symmetrically", () => {
    expect(decideVerdict({ better: "lower", deltaPct: -12, pValue: 0.001 }, options).verdict).toBe("improved");
    expect(decideVerdict({ better: "higher", deltaPct: 12, pValue: 0.001 }, options).verdict).toBe("improved");
  });

  it("counts |Δ%| = minEffect as large enough, and p = alpha as not significant", () => {
    expect(decideVerdict({ better: "lower", deltaPct: 5, pValue: 0.001 }, options).verdict).toBe("regressed");
    expect(decideVerdict({ better: "lower", deltaPct: 50, pValue: 0.01 }, options).verdict).toBe("unchanged");
  });

  it("explains an unchanged verdict", () => {
    expect(decideVerdict({ better: "lower", deltaPct: 2, pValue: 0.001 }, options).reason).toBe(
      "+2.0% is below the 5% minimum effect",
    );
    expect(decideVerdict({ better: "lower", deltaPct: -20, pValue: 0.3 }, options).reason).toBe(
      "−20.0% is not statistically significant (p = 0.3 ≥ 0.01)",
    );
  });

  it("honours per-project options", () => {
    const strict = { minEffectPct: 1, alpha: 0.01 };
    expect(decideVerdict({ better: "lower", deltaPct: 2, pValue: 0.005 }, strict).verdict).toBe("regressed");
    expect(decideVerdict({ better: "lower", deltaPct: 2, pValue: 0.02 }, strict).verdict).toBe("unchanged");
  });
});

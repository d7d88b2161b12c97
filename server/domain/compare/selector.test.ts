import { describe, expect, it } from "vitest";
import { InputError } from "../input-error";
import { describeSelector, parseRunSelector } from "./selector";

describe("parseRunSelector", () => {
  it("reads run ids, label:, branch: and commit:", () => {
    expect(parseRunSelector("a1, b2,a1", "base")).toEqual({ kind: "ids", ids: ["a1", "b2"] });
    expect(parseRunSelector("label:ManagedAsync", "head")).toEqual({ kind: "label", value: "ManagedAsync" });
    expect(parseRunSelector("branch:feature/x", "head")).toEqual({ kind: "branch", value: "feature/x" });
    expect(parseRunSelector("commit:9f1c2e7", "base")).toEqual({ kind: "commit", value: "9f1c2e7" });
    expect(describeSelector(parseRunSelector("label:baseline", "base"))).toBe("label:baseline");
  });

  it("rejects empty, oversized and malformed selectors with the parameter at fault", () => {
    for (const bad of ["", " , ", "label:", "drop table;"]) {
      expect(() => parseRunSelector(bad, "base")).toThrow(InputError);
    }
    try {
      parseRunSelector(Array.from({ length: 51 }, (_, i) => `r${i}`).join(","), "head");
    } catch (error) {
      expect((error as InputError).code).toBe("too_large");
      expect((error as InputError).details[0]?.path).toBe("head");
    }
  });
});

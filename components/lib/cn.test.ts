import { describe, expect, it } from "vitest";
import { cn } from "./cn";

describe("cn", () => {
  it("joins truthy class names and skips falsy ones", () => {
    const isActive = false;
    expect(cn("rounded", isActive && "font-bold", null, undefined, 0, "", "text-sm")).toBe("rounded text-sm");
  });

  it("returns an empty string for nothing", () => {
    expect(cn()).toBe("");
    expect(cn(false, "  ")).toBe("");
  });
});

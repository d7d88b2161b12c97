import { describe, expect, it } from "vitest";
import { roleLegend } from "./role-legend";

describe("roleLegend", () => {
  it("lists each role with the words of what it may do, each role with all the one before it may", () => {
    expect(roleLegend()).toEqual([
      { role: "viewer", may: ["read this project"] },
      { role: "triager", may: ["read this project", "post markers and annotations", "triage incidents"] },
      {
        role: "maintainer",
        may: ["read this project", "upload runs", "post markers and annotations", "triage incidents", "make share links", "change this project's settings"],
      },
    ]);
  });
});

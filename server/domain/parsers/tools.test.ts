import { describe, expect, it } from "vitest";
import { FORMAT_IDS } from "../run";
import { DETECTION_ORDER, FORMAT_DESCRIPTORS, TOOL_FORMATS, TOOLS } from "./tools";

describe("the one list of tools", () => {
  it("declares every format once, each tool under its own name", () => {
    expect(TOOL_FORMATS.map((format) => format.info.id).sort()).toEqual([...FORMAT_IDS].sort());
    expect(new Set(TOOLS.map((tool) => tool.tool)).size).toBe(TOOLS.length);
    for (const id of FORMAT_IDS) expect(FORMAT_DESCRIPTORS[id].info.id).toBe(id);
  });

  it("orders detection over exactly the formats that declare each kind of marker", () => {
    for (const [kind, order] of Object.entries(DETECTION_ORDER)) {
      const declared = TOOL_FORMATS.filter((format) => format.markers?.[kind as keyof typeof DETECTION_ORDER]);
      expect([...order].sort(), kind).toEqual(declared.map((format) => format.info.id).sort());
      expect(new Set(order).size, kind).toBe(order.length);
    }
  });

  it("puts a format in at most one file set, of its own tool, so at most one set takes a list of files", () => {
    const seen = new Set<string>();
    for (const tool of TOOLS) {
      const own = tool.formats.map((format) => format.info.id);
      for (const set of tool.fileSets?.sets ?? []) {
        for (const format of set.formats) {
          expect(own).toContain(format);
          expect(seen.has(format), format).toBe(false);
          seen.add(format);
        }
      }
    }
  });

  it("reads line streams (ndjson) only through a first-line marker", () => {
    for (const format of TOOL_FORMATS.filter((candidate) => candidate.parser.kind === "ndjson")) {
      expect(DETECTION_ORDER.firstLine).toContain(format.info.id);
    }
  });
});

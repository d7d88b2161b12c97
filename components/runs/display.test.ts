import { describe, expect, it } from "vitest";
import { formatMs, formatRate, MISSING } from "@/server/domain/format";
import { formatUtcTimestamp, withoutUnit } from "./display";

describe("withoutUnit", () => {
  it("drops the unit the column header states", () => {
    expect(withoutUnit(formatMs(0.74), "ms")).toBe("0.74");
    expect(withoutUnit(formatRate(2.87), "req/s")).toBe("2.87");
  });

  it("keeps another unit and the missing mark", () => {
    expect(withoutUnit(formatMs(1234), "ms")).toBe("1.23 s");
    expect(withoutUnit(formatMs(null), "ms")).toBe(MISSING);
  });
});

describe("formatUtcTimestamp", () => {
  it("shows the time in UTC to the second", () => {
    expect(formatUtcTimestamp("2026-11-22T09:37:03.638Z")).toBe("2026-11-22 09:37:03 UTC");
    expect(formatUtcTimestamp("2026-11-22T10:37:03+01:00")).toBe("2026-11-22 09:37:03 UTC");
  });

  it("is null for no or a bad time", () => {
    expect(formatUtcTimestamp(null)).toBeNull();
    expect(formatUtcTimestamp("yesterday")).toBeNull();
  });
});

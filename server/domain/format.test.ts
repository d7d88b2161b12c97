import { describe, expect, it } from "vitest";
import {
  elideMiddle,
  formatMetricValue,
  MISSING,
  formatBytes,
  formatDeltaPct,
  formatDuration,
  formatMs,
  formatNumber,
  formatPct,
  formatPValue,
  formatOpsRate,
  formatRate,
  formatRelativeTime,
} from "./format";

const numberFormatters = [formatMs, formatNumber, formatRate, formatOpsRate, formatPct, formatDeltaPct, formatPValue, formatDuration, formatBytes];

describe("missing values", () => {
  it.each([null, undefined, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])(
    "every number formatter shows %s as MISSING",
    (value) => {
      for (const format of numberFormatters) expect(format(value)).toBe(MISSING);
    },
  );

  it("MISSING is an em dash", () => {
    expect(MISSING).toBe("—");
  });
});

describe("formatMs", () => {
  it.each([
    [0, "0 ms"],
    [0.0000123, "12.3 ns"],
    [0.000_999_6, "1 µs"],
    [0.0123, "12.3 µs"],
    [0.08144, "81.4 µs"],
    [0.09996, "0.1 ms"],
    [0.74, "0.74 ms"],
    [0.876, "0.876 ms"],
    [1.11, "1.11 ms"],
    [12.345, "12.3 ms"],
    [50, "50 ms"],
    [123.4, "123 ms"],
    [999.4, "999 ms"],
    [999.7, "1 s"],
    [1000, "1 s"],
    [1234, "1.23 s"],
    [65_432, "65.4 s"],
    [1_234_567, "1,235 s"],
    [-12.34, "-12.3 ms"],
  ])("%s → %s", (ms, expected) => {
    expect(formatMs(ms)).toBe(expected);
  });
});

describe("formatNumber", () => {
  it.each([
    [0, "0"],
    [89, "89"],
    [12_345, "12,345"],
    [1_234_567.891, "1,234,567.89"],
    [-4321, "-4,321"],
  ])("%s → %s", (value, expected) => {
    expect(formatNumber(value)).toBe(expected);
  });

  it("takes a maximum number of decimals", () => {
    expect(formatNumber(1234.5678, 0)).toBe("1,235");
    expect(formatNumber(2.5, 3)).toBe("2.5");
  });
});

describe("formatRate", () => {
  it.each([
    [0, "0.00 req/s"],
    [2.87, "2.87 req/s"],
    [0.5, "0.50 req/s"],
    [99.99, "99.99 req/s"],
    [99.999, "100 req/s"],
    [100, "100 req/s"],
    [1234.56, "1,235 req/s"],
  ])("%s → %s", (value, expected) => {
    expect(formatRate(value)).toBe(expected);
  });
});

describe("formatOpsRate", () => {
  it.each([
    [0.5, "0.50 ops/s"],
    [99.999, "100 ops/s"],
    [210_000, "210,000 ops/s"],
    [999_999.4, "999,999 ops/s"],
    [999_999.6, "1M ops/s"],
    [42_735_042.7, "42.7M ops/s"],
    [1_234_567_890, "1.23G ops/s"],
    [45_600_000_000, "45.6G ops/s"],
  ])("%s → %s", (value, expected) => {
    expect(formatOpsRate(value)).toBe(expected);
  });
});

describe("formatPct and formatDeltaPct", () => {
  it.each([
    [0, "0.00%"],
    [0.0123, "1.23%"],
    [0.005, "0.50%"],
    [1, "100.00%"],
  ])("formatPct(%s) → %s", (fraction, expected) => {
    expect(formatPct(fraction)).toBe(expected);
  });

  it("formatPct takes a number of decimals", () => {
    expect(formatPct(0.12345, 1)).toBe("12.3%");
  });

  it.each([
    [76.1, "+76.1%"],
    [-4.2, "−4.2%"],
    [0, "0.0%"],
    [-0.01, "0.0%"], // rounds to zero: no misleading sign
    [1250, "+1,250.0%"],
  ])("formatDeltaPct(%s) → %s", (deltaPct, expected) => {
    expect(formatDeltaPct(deltaPct)).toBe(expected);
  });
});

describe("formatPValue", () => {
  it.each([
    [0.0004, "p < 0.001"],
    [0.001, "p = 0.001"],
    [0.0213, "p = 0.021"],
    [0.3, "p = 0.3"],
    [1, "p = 1"],
  ])("formatPValue(%s) → %s", (pValue, expected) => {
    expect(formatPValue(pValue)).toBe(expected);
  });
});

describe("formatDuration", () => {
  it.each([
    [0, "0 s"],
    [0.5, "0.5 s"],
    [9.96, "10 s"],
    [12, "12 s"],
    [59.6, "1 m"],
    [90, "1 m 30 s"],
    [120, "2 m"],
    [3600, "1 h"],
    [2 * 3600 + 5 * 60 + 59, "2 h 5 m"],
    [3 * 86_400 + 4 * 3600, "3 d 4 h"],
    [-90, "-1 m 30 s"],
  ])("%s s → %s", (seconds, expected) => {
    expect(formatDuration(seconds)).toBe(expected);
  });
});

describe("formatBytes", () => {
  it.each([
    [0, "0 B"],
    [512, "512 B"],
    [1023.9, "1 KiB"],
    [1536, "1.5 KiB"],
    [101 * 1024 * 1024, "101 MiB"],
    [5.25 * 1024 ** 3, "5.25 GiB"],
    [2 * 1024 ** 6, "2,048 PiB"],
  ])("%s → %s", (bytes, expected) => {
    expect(formatBytes(bytes)).toBe(expected);
  });
});

describe("formatRelativeTime", () => {
  const now = new Date("2025-11-10T12:00:00Z");
  const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);

  it.each([
    [0, "just now"],
    [59, "just now"],
    [60, "1 min ago"],
    [59 * 60 + 59, "59 min ago"],
    [3 * 3600 + 3599, "3 h ago"],
    [2 * 86_400, "2 d ago"],
    [65 * 86_400, "2 mo ago"],
    [400 * 86_400, "1 y ago"],
    [-3 * 3600, "in 3 h"],
  ])("%s s before now → %s", (seconds, expected) => {
    expect(formatRelativeTime(ago(seconds), now)).toBe(expected);
  });

  it("accepts ISO strings and epoch milliseconds, and shows MISSING for missing or invalid dates", () => {
    expect(formatRelativeTime("2025-11-10T09:00:00Z", now)).toBe("3 h ago");
    expect(formatRelativeTime(now.getTime() - 120_000, now.getTime())).toBe("2 min ago");
    expect(formatRelativeTime(null, now)).toBe(MISSING);
    expect(formatRelativeTime(undefined, now)).toBe(MISSING);
    expect(formatRelativeTime("not a date", now)).toBe(MISSING);
  });
});

describe("formatMetricValue", () => {
  it("formats each kind of metric in its unit", () => {
    expect(formatMetricValue("p95", "ms", 2483.2)).toBe("2.48 s");
    expect(formatMetricValue("throughput", "req/s", 2.871)).toBe("2.87 req/s");
    expect(formatMetricValue("throughput", "ops/s", 210_000)).toBe("210,000 ops/s");
    expect(formatMetricValue("errorRate", null, 0.0123)).toBe("1.23%");
    expect(formatMetricValue("metrics.memory", "MB", 101)).toBe("101 MB");
    expect(formatMetricValue("metrics.completion", "s", 6.6)).toBe("6.6 s");
    expect(formatMetricValue("metrics.count", null, 1234.5678)).toBe("1,234.568");
    expect(formatMetricValue("metrics.cpu", "%", 12.7)).toBe("12.7%");
    expect(formatMetricValue("p95", "ms", null)).toBe(MISSING);
  });
});

describe("elideMiddle", () => {
  it("keeps a short name, and shortens a long one in its middle to the length asked", () => {
    expect(elideMiddle("GetListing")).toBe("GetListing");
    const sort = (n: number) => `example.com/microbench > BenchmarkSortInts/n=${n}`;
    const [small, large] = [elideMiddle(sort(100), 30), elideMiddle(sort(1000), 30)];
    expect([...small]).toHaveLength(30);
    expect(small).toContain("…");
    expect(small.startsWith("example.com")).toBe(true);
    // Names alike up to their end stay apart.
    expect(small).not.toBe(large);
    expect(large.endsWith("n=1000")).toBe(true);
  });
});

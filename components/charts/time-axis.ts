/**
 * Time on a chart's x axis: tick positions on round UTC boundaries and their labels. Pure and pinned to
 * UTC + en-US, like components/lib/format.ts, so server and browser renders read the same.
 */
import { MISSING } from "@/server/domain/format";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Candidate tick steps, smallest first; months and years are approximated (labels stay calendar-true). */
const STEPS = [
  HOUR,
  3 * HOUR,
  6 * HOUR,
  12 * HOUR,
  DAY,
  2 * DAY,
  7 * DAY,
  14 * DAY,
  30 * DAY,
  91 * DAY,
  182 * DAY,
  365 * DAY,
];

/**
 * About `target` ticks between `min` and `max` (epoch ms), on multiples of a round step (UTC). A span of
 * zero (one run, or runs at one instant) gets the one tick.
 */
export function timeTicks(min: number, max: number, target = 6): number[] {
  if (!Number.isFinite(min) || !Number.isFinite(max) || max < min) return [];
  if (max === min) return [min];
  const step = STEPS.find((candidate) => (max - min) / candidate <= target) ?? STEPS[STEPS.length - 1] ?? DAY;
  const ticks: number[] = [];
  for (let tick = Math.ceil(min / step) * step; tick <= max; tick += step) ticks.push(tick);
  return ticks.length > 0 ? ticks : [min, max];
}

const SHORT_TIME = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
  timeZone: "UTC",
});
const SHORT_DAY = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" });
const MONTH_YEAR = new Intl.DateTimeFormat("en-US", { month: "short", year: "numeric", timeZone: "UTC" });

/** A tick label for a span: "Nov 22, 09:00" within 3 days, "Nov 22" within a year, else "Nov 2026". */
export function timeTickFormatter(spanMs: number): (epochMs: number) => string {
  if (spanMs <= 3 * DAY) return (epochMs) => SHORT_TIME.format(epochMs);
  if (spanMs <= 365 * DAY) return (epochMs) => SHORT_DAY.format(epochMs);
  return (epochMs) => MONTH_YEAR.format(epochMs);
}

/** A run's start time in full, for tooltips and tables: "2026-11-22 09:37 UTC". */
export function formatRunTime(time: Date | number): string {
  const date = new Date(time);
  if (Number.isNaN(date.getTime())) return MISSING;
  return `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/**
 * The one set of number and time formatters for pages, Markdown comments, webhooks, badges and the
 * `reason` sentences statistics return: one formatter per kind of number, one signature each. Pure and
 * isomorphic (no React, no DOM, no I/O), so server and browser import the same module, and pinned to en-US so server-rendered and client-rendered text are identical (a
 * visitor's locale would otherwise cause hydration mismatches). Every formatter returns MISSING for
 * null, undefined, NaN or ±Infinity: a missing number is shown as missing, never as 0.
 *
 * Precision rules, in one place:
 * - latency and time per operation (`formatMs`): 3 significant digits, trailing zeros dropped ("0.74 ms",
 *   "12.3 ms", "123 ms"); from 1000 ms in seconds by the same rule ("1.23 s"); from 1000 s whole seconds
 *   ("1,235 s"); below 0.1 ms in µs ("81.4 µs"), below 1 µs in ns ("12.3 ns"): a microbenchmark's
 *   time per operation reads in the unit that fits it.
 * - rates (`formatRate` for requests, `formatOpsRate` for a benchmark's operations): 2 fixed decimals under
 *   100 per second ("2.87 req/s"), whole numbers above ("1,235 req/s", "210,000 ops/s"); operations from
 *   a million in M or G to 3 significant digits ("42.7M ops/s").
 * - fractions (`formatPct`): 2 fixed decimals ("0.00%", "1.23%").
 * - relative changes (`formatDeltaPct`), given in percent as every `deltaPct` field is: 1 decimal with a
 *   sign and a true minus ("+76.1%", "−4.2%", "0.0%").
 * - p-values (`formatPValue`): "p < 0.001", else two significant digits ("p = 0.021", "p = 0.3").
 */

export const MISSING = "—";

const LOCALE = "en-US";

const SIGNIFICANT_3 = new Intl.NumberFormat(LOCALE, { maximumSignificantDigits: 3 });
const WHOLE = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 0 });
const TWO_DECIMALS = new Intl.NumberFormat(LOCALE, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const DELTA_PERCENT = new Intl.NumberFormat(LOCALE, {
  minimumFractionDigits: 1,
  maximumFractionDigits: 1,
  signDisplay: "exceptZero",
});
const numberFormats = new Map<number, Intl.NumberFormat>();
const percentFormats = new Map<number, Intl.NumberFormat>();

type MaybeNumber = number | null | undefined;

/** The number when there is one worth showing; narrows away null, undefined, NaN and ±Infinity. */
function isPresent(value: MaybeNumber): value is number {
  return typeof value === "number" && Number.isFinite(value);
}

/** 3 significant digits below 1000, whole numbers with separators from 1000 (no "1.23e+3"). */
function formatSignificant(value: number): string {
  return Math.abs(value) >= 1000 ? WHOLE.format(value) : SIGNIFICANT_3.format(value);
}

/** The value rounded as `formatSignificant` would show it, to pick a unit after rounding (999.7 → 1000). */
function roundSignificant(value: number): number {
  return Math.abs(value) >= 1000 ? Math.round(value) : Number(value.toPrecision(3));
}

/** Latency in milliseconds: "12.3 ns", "81.4 µs", "0.74 ms", "12.3 ms", "123 ms", "1.23 s", "65.4 s". */
export function formatMs(ms: MaybeNumber): string {
  if (!isPresent(ms)) return MISSING;
  if (ms !== 0 && Math.abs(roundSignificant(ms * 1000)) < 100) {
    const us = ms * 1000;
    return Math.abs(roundSignificant(us)) < 1 ? `${formatSignificant(us * 1000)} ns` : `${formatSignificant(us)} µs`;
  }
  // Decide the unit on the rounded value, so 999.7 ms reads "1 s" rather than "1,000 ms".
  if (Math.abs(roundSignificant(ms)) < 1000) return `${formatSignificant(ms)} ms`;
  return `${formatSignificant(ms / 1000)} s`;
}

/** en-US thousands separators, up to `maximumFractionDigits` decimals (default 2): "12,345", "1,234.57". */
export function formatNumber(value: MaybeNumber, maximumFractionDigits = 2): string {
  if (!isPresent(value)) return MISSING;
  let format = numberFormats.get(maximumFractionDigits);
  if (format === undefined) {
    format = new Intl.NumberFormat(LOCALE, { maximumFractionDigits });
    numberFormats.set(maximumFractionDigits, format);
  }
  return format.format(value);
}

/** A rate per second in `unit`: 2 fixed decimals under 100, whole numbers from 100. */
function formatPerSecond(perSecond: MaybeNumber, unit: "req/s" | "ops/s"): string {
  if (!isPresent(perSecond)) return MISSING;
  // Compare after rounding so 99.999 reads "100 req/s", not "100.00 req/s".
  const isSmall = Math.abs(Math.round(perSecond * 100)) < 100 * 100;
  return `${isSmall ? TWO_DECIMALS.format(perSecond) : WHOLE.format(perSecond)} ${unit}`;
}

/** Requests per second (a load test's throughput): "2.87 req/s" under 100, "1,235 req/s" from 100. */
export function formatRate(requestsPerSecond: MaybeNumber): string {
  return formatPerSecond(requestsPerSecond, "req/s");
}

const OPS_SCALES = [
  { factor: 1e9, suffix: "G" },
  { factor: 1e6, suffix: "M" },
] as const;

/**
 * Operations per second (a benchmark's throughput): "2.87 ops/s" under 100, "210,000 ops/s" from 100,
 * and from a million in millions or billions to 3 significant digits ("42.7M ops/s", "1.23G ops/s"):
 * a nanosecond operation's rate in whole numbers would print digits no benchmark measures.
 */
export function formatOpsRate(operationsPerSecond: MaybeNumber): string {
  if (!isPresent(operationsPerSecond)) return MISSING;
  // Decide on the value as it would be shown, so 999,999.6 reads "1M ops/s" rather than "1,000,000 ops/s".
  if (Math.abs(Math.round(operationsPerSecond)) < 1e6) return formatPerSecond(operationsPerSecond, "ops/s");
  const scale =
    OPS_SCALES.find(({ factor }) => Math.abs(roundSignificant(operationsPerSecond / factor)) >= 1) ?? OPS_SCALES[1];
  return `${formatSignificant(operationsPerSecond / scale.factor)}${scale.suffix} ops/s`;
}

/** A fraction as a percentage: 0.0123 → "1.23%", 0 → "0.00%" (error rates are stored as 0..1). */
export function formatPct(fraction: MaybeNumber, fractionDigits = 2): string {
  if (!isPresent(fraction)) return MISSING;
  let format = percentFormats.get(fractionDigits);
  if (format === undefined) {
    format = new Intl.NumberFormat(LOCALE, {
      style: "percent",
      minimumFractionDigits: fractionDigits,
      maximumFractionDigits: fractionDigits,
    });
    percentFormats.set(fractionDigits, format);
  }
  return format.format(fraction);
}

/**
 * A relative change in percent, 100 · (head − base) / base, with its sign and a true minus:
 * 76.1 → "+76.1%", −4.2 → "−4.2%", 0 → "0.0%" (a change that rounds to zero gets no sign).
 */
export function formatDeltaPct(deltaPct: MaybeNumber): string {
  if (!isPresent(deltaPct)) return MISSING;
  return `${DELTA_PERCENT.format(deltaPct).replace("-", "−")}%`;
}

/** A p-value as evidence is read: "p < 0.001", else two significant digits ("p = 0.021", "p = 0.3"). */
export function formatPValue(pValue: MaybeNumber): string {
  if (!isPresent(pValue)) return MISSING;
  if (pValue < 0.001) return "p < 0.001";
  return `p = ${Number(pValue.toPrecision(2))}`;
}

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * A duration in seconds, in its two largest units: "0.5 s", "12 s", "1 m 30 s", "2 h 5 m", "3 d 4 h".
 * Under 10 s keeps one decimal; zero-valued second units are dropped ("2 m", not "2 m 0 s").
 */
export function formatDuration(seconds: MaybeNumber): string {
  if (!isPresent(seconds)) return MISSING;
  if (seconds < 0) return `-${formatDuration(-seconds)}`;
  if (seconds < 10) return `${formatNumber(seconds, 1)} s`;
  const whole = Math.round(seconds);
  if (whole < MINUTE) return `${whole} s`;
  if (whole < HOUR) return twoUnits(Math.floor(whole / MINUTE), "m", whole % MINUTE, "s");
  if (whole < DAY) return twoUnits(Math.floor(whole / HOUR), "h", Math.floor((whole % HOUR) / MINUTE), "m");
  return twoUnits(Math.floor(whole / DAY), "d", Math.floor((whole % DAY) / HOUR), "h");
}

function twoUnits(major: number, majorUnit: string, minor: number, minorUnit: string): string {
  const head = `${formatNumber(major, 0)} ${majorUnit}`;
  return minor === 0 ? head : `${head} ${minor} ${minorUnit}`;
}

/** Binary (IEC) units, since memory is counted in powers of two: "512 B", "1.5 KiB", "101 MiB". */
const BYTE_UNITS = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"] as const;

export function formatBytes(bytes: MaybeNumber): string {
  if (!isPresent(bytes)) return MISSING;
  let value = bytes;
  let unitIndex = 0;
  // Step up on the value as it would be shown, so 1023.9 B reads "1 KiB" rather than "1,024 B".
  const shown = (amount: number) => (unitIndex === 0 ? Math.round(amount) : roundSignificant(amount));
  while (unitIndex < BYTE_UNITS.length - 1 && Math.abs(shown(value)) >= 1024) {
    value /= 1024;
    unitIndex += 1;
  }
  const text = unitIndex === 0 ? WHOLE.format(value) : formatSignificant(value);
  return `${text} ${BYTE_UNITS[unitIndex] ?? "B"}`;
}

/**
 * How long ago (or until) `date` is, seen from `now`, rounded down so it never overstates:
 * "just now" (under a minute), "5 min ago", "3 h ago", "2 d ago", "4 mo ago", "1 y ago", "in 3 h".
 * `now` is a parameter so the text is a pure function (tests, and identical server/client renders).
 */
export function formatRelativeTime(date: Date | string | number | null | undefined, now: Date | number): string {
  if (date === null || date === undefined) return MISSING;
  const then = new Date(date).getTime();
  const reference = new Date(now).getTime();
  if (!Number.isFinite(then) || !Number.isFinite(reference)) return MISSING;

  const seconds = Math.abs(reference - then) / 1000;
  if (seconds < MINUTE) return "just now";
  const amount = relativeAmount(seconds);
  return reference >= then ? `${amount} ago` : `in ${amount}`;
}

function relativeAmount(seconds: number): string {
  if (seconds < HOUR) return `${Math.floor(seconds / MINUTE)} min`;
  if (seconds < DAY) return `${Math.floor(seconds / HOUR)} h`;
  const days = Math.floor(seconds / DAY);
  // Months and years as 30 and 365 days: for "how long ago", calendar exactness is not worth the code.
  if (days < 30) return `${days} d`;
  if (days < 365) return `${Math.floor(days / 30)} mo`;
  return `${Math.floor(days / 365)} y`;
}

/**
 * A value of a named metric in its own unit (see ./metrics): latency in ms, throughput in req/s (ops/s for
 * a benchmark, see ./result-kind), error rate (a fraction) as %, custom metrics with their unit ("101 MB",
 * "12.7%": a percent sign is glued).
 */
export function formatMetricValue(metric: string, unit: string | null, value: MaybeNumber): string {
  if (metric === "errorRate") return formatPct(value);
  if (unit === "ms") return formatMs(value);
  if (unit === "req/s") return formatRate(value);
  if (unit === "ops/s") return formatOpsRate(value);
  if (!isPresent(value)) return MISSING;
  if (!unit) return formatNumber(value, 3);
  return unit === "%" ? `${formatNumber(value, 3)}%` : `${formatNumber(value, 3)} ${unit}`;
}

/**
 * A long name shortened in its middle, where names of one package or service are alike, keeping the start
 * and the end that tells them apart: "example.com/microbench > Bench…SortInts/n=1000". For where a name
 * cannot wrap (a select's options); a table wraps names instead.
 */
export function elideMiddle(text: string, max = 48): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  const head = Math.floor((max - 1) * 0.4);
  const tail = max - 1 - head;
  return `${chars.slice(0, head).join("")}…${chars.slice(chars.length - tail).join("")}`;
}

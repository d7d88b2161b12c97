/**
 * One Valgrind profile, cachegrind's or callgrind's output file, read line by line (checked on
 * valgrind 3.19.0; the callgrind format: valgrind.org/docs/manual/cl-format.html; cachegrind's is its
 * subset, as cg_annotate reads it). Only each part's event totals are kept, never the per-function
 * costs, so a file of any size costs a few numbers of memory.
 *
 * - Header lines `key: value`: `cmd:` (the command as run), `pid:`, `creator:` (callgrind-3.19.0),
 *   `positions:` (how many position fields start a cost line: `line`, `instr line`), `events:` (the
 *   events counted, `Ir` first), `desc: Trigger: …` (what ended a callgrind part), `part: N`,
 *   `summary:` and `totals:` (the counts of a part). Other header lines (`version:`, `desc:` of the
 *   caches, `event:` definitions, `thread:`) say nothing a benchmark needs.
 * - Specification lines `name=value` (`fl=`, `fn=`, `ob=`, `calls=`, `jump=` …) name where the costs
 *   that follow belong; `calls=` makes the next cost line the inclusive cost of a call, which is
 *   already counted in the callee's own lines, so it is not added again.
 * - Cost lines: the positions (`12`, `+3`, `-2`, `*`, `0x4011a0`), then one count per event in the
 *   `events:` order; counts left off the end are zero.
 *
 * A part's counts are its total line's: callgrind's `totals:` (written after the part's costs; the
 * `summary:` in a callgrind part's header is not that part's: 0, or wrapped below zero, after a dump),
 * cachegrind's `summary:`. The total must equal the sum of the part's own cost lines: a file cut short
 * (the total missing, or a part without its last lines) or edited is refused rather than counted short.
 * A part that states no total is counted as the sum of its cost lines, and says so.
 */
import { InputError } from "../../input-error";
import { forEachLine } from "../text-lines";

export type ValgrindFormat = "cachegrind" | "callgrind";

export interface ProfilePart {
  /** `part: N` (callgrind), or null when the file has no part lines. */
  number: number | null;
  /** What ended the part, as callgrind's `desc: Trigger:` says ("Client Request: sort 100"), or null. */
  trigger: string | null;
  events: readonly string[];
  /** One count per event: the part's stated total (checked against its cost lines), else their sum. */
  counts: readonly number[];
  /** Whether the part stated no total, so its counts are the sum of its cost lines. */
  isSummed: boolean;
  /** Where the part's `events:` line is ("callgrind.out.all: line 19"). */
  eventsAt: string;
}

export interface ValgrindProfile {
  format: ValgrindFormat;
  /** The command as the file states it (`./micro_ir sort 1000`), spaces trimmed, or null. */
  cmd: string | null;
  /** The process id (callgrind): the files of one process's dumps share it. */
  pid: string | null;
  /** `callgrind-3.19.0` (callgrind), or null. */
  creator: string | null;
  parts: ProfilePart[];
}

/** Events a part may count (each becomes a metric; validate.ts allows 100 per benchmark). */
export const MAX_EVENTS = 100;
/** Parts (callgrind dumps) a file may hold: each is a benchmark, and a run holds at most 1,000. */
export const MAX_PARTS = 1_000;
/**
 * The longest line that is split into fields (cost, events and total lines): a real one is a few
 * hundred characters; a longer one is refused before it is split into millions of strings.
 */
export const MAX_FIELD_LINE = 4_096;

const TITLES: Record<ValgrindFormat, string> = {
  cachegrind: "cachegrind output file",
  callgrind: "callgrind output file",
};

/** `fl=`, `fn=`, `calls=`…: a specification line (a name, `=`, anything). */
const SPEC_LINE = /^[a-z]+=/;
/** `events: Ir`, `desc: Trigger: …`, `timeframe (BB): 12`: a header line's key, up to its first colon. */
const HEADER_KEY = /^[A-Za-z][A-Za-z0-9 ()_-]*(?=:)/;
/** A cost line's position: a number (decimal or 0x hex, or relative: +3, -2) or `*` (the same as before). */
const SUBPOSITION = /^(?:[+-]?(?:\d+|0x[0-9a-fA-F]+)|\*)$/;
/** A count: a whole decimal (or 0x hex) number. */
const COUNT = /^(?:\d+|0x[0-9a-fA-F]+)$/;
const POSITION_NAMES = new Set(["line", "instr"]);

interface OpenPart {
  number: number | null;
  trigger: string | null;
  events: readonly string[] | null;
  eventsAt: string;
  sums: number[];
  hasCosts: boolean;
  /** The last `summary:` and `totals:` lines, as text, where they are. */
  summary: { text: string; at: string } | null;
  totals: { text: string; at: string } | null;
}

export function readValgrindProfile(text: string, source: string, format: ValgrindFormat): ValgrindProfile {
  const fail = (at: string, message: string): InputError =>
    new InputError("malformed", `Not a valid ${TITLES[format]} (${at}: ${message})`, [{ path: at, message }]);
  const profile: ValgrindProfile = { format, cmd: null, pid: null, creator: null, parts: [] };
  let positions = 1;
  let events: readonly string[] | null = null;
  let eventsAt = "";
  let part = openPart(null, null, "");
  let isCallCost = false;
  let lastLine = 0;

  const finishPart = (): void => {
    if (part.events === null) return;
    if (profile.parts.length >= MAX_PARTS) {
      throw fail(part.eventsAt, `more than ${MAX_PARTS} parts: a run holds at most ${MAX_PARTS} benchmarks`);
    }
    profile.parts.push(closePart(part, format, fail));
  };

  forEachLine(text, (line, lineNumber) => {
    lastLine = lineNumber;
    const first = line.charCodeAt(0);
    if (first === HASH) return;
    // Most lines are cost lines, read without splitting (a 45 MB file in about a second).
    if (isCostLineStart(first)) {
      const at = () => `${source}: line ${lineNumber}`;
      if (part.events === null) throw fail(at(), 'a cost line before any "events:" line (the file has none?)');
      if (line.length > MAX_FIELD_LINE) {
        throw fail(at(), `a cost line of ${line.length} characters (at most ${MAX_FIELD_LINE})`);
      }
      part.hasCosts = true;
      // The line after `calls=` is the call's inclusive cost: the callee's own lines count it already.
      addCostLine(line, positions, part.events, isCallCost ? null : part.sums, at, fail);
      isCallCost = false;
      return;
    }
    if (line.trim() === "") return;
    const at = `${source}: line ${lineNumber}`;
    if (SPEC_LINE.test(line)) {
      if (line.startsWith("calls=")) isCallCost = true;
      return;
    }
    const key = HEADER_KEY.exec(line)?.[0];
    if (key === undefined) throw fail(at, `"${line.slice(0, 60)}" is not a line of the ${format} format`);
    const value = line.slice(key.length + 1).trim();
    switch (key) {
      case "cmd":
        profile.cmd ??= value;
        break;
      case "pid":
        profile.pid ??= value;
        break;
      case "creator":
        profile.creator ??= value;
        break;
      case "part": {
        if (!/^\d+$/.test(value)) throw fail(at, `"part: ${value.slice(0, 40)}" is not a part number`);
        // The file's first header: `part: 1` comes after version, creator, pid and cmd.
        if (part.number === null && !part.hasCosts && part.summary === null && part.totals === null) {
          part.number = Number(value);
          break;
        }
        finishPart();
        part = openPart(Number(value), events, eventsAt);
        break;
      }
      case "desc":
        if (value.startsWith("Trigger:")) part.trigger = value.slice("Trigger:".length).trim();
        break;
      case "positions": {
        const names = value.split(/\s+/).filter((name) => name !== "");
        if (names.length === 0 || names.length > 2 || !names.every((name) => POSITION_NAMES.has(name))) {
          throw fail(at, `"positions: ${value.slice(0, 40)}" names no positions callgrind writes (line, instr)`);
        }
        positions = names.length;
        break;
      }
      case "events": {
        if (part.hasCosts) throw fail(at, 'an "events:" line after cost lines of the same part');
        if (line.length > MAX_FIELD_LINE) throw fail(at, `an events line of ${line.length} characters`);
        events = readEvents(value, at, fail);
        eventsAt = at;
        part.events = events;
        part.eventsAt = at;
        part.sums = events.map(() => 0);
        break;
      }
      case "summary":
      case "totals":
        if (line.length > MAX_FIELD_LINE) throw fail(at, `a ${key} line of ${line.length} characters`);
        part[key] = { text: value, at };
        break;
      default:
        // version:, event:, thread:, timeframe (BB): … and other headers say nothing a benchmark needs.
        break;
    }
  });
  finishPart();
  if (profile.parts.length === 0) {
    throw fail(
      `${source}: line ${Math.max(lastLine, 1)}`,
      'no "events:" line: the file names no events, so it counts nothing',
    );
  }
  return profile;
}

function openPart(number: number | null, events: readonly string[] | null, eventsAt: string): OpenPart {
  return {
    number,
    trigger: null,
    events,
    eventsAt,
    sums: (events ?? []).map(() => 0),
    hasCosts: false,
    summary: null,
    totals: null,
  };
}

type Fail = (at: string, message: string) => InputError;

function readEvents(value: string, at: string, fail: Fail): string[] {
  const names = value.split(/\s+/).filter((name) => name !== "");
  if (names.length === 0) throw fail(at, '"events:" names no events');
  if (names.length > MAX_EVENTS) throw fail(at, `${names.length} events (at most ${MAX_EVENTS})`);
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name)) throw fail(at, `the event ${name.slice(0, 40)} is named twice`);
    seen.add(name);
  }
  return names;
}

const HASH = 35;
const [PLUS, MINUS, STAR, DIGIT_0, DIGIT_9, SPACE, TAB] = ["+", "-", "*", "0", "9", " ", "\t"].map((c) =>
  c.charCodeAt(0),
) as [number, number, number, number, number, number, number];

/** A cost line starts with a position: a digit, `+`, `-` or `*`. */
function isCostLineStart(code: number): boolean {
  return (code >= DIGIT_0 && code <= DIGIT_9) || code === PLUS || code === MINUS || code === STAR;
}

/**
 * Reads a cost line's positions and counts (checked), and adds the counts to `sums` (null: checked only,
 * a call's inclusive cost). Fields are found by scanning, not by splitting: this runs for almost every line.
 */
function addCostLine(
  line: string,
  positions: number,
  events: readonly string[],
  sums: number[] | null,
  at: () => string,
  fail: Fail,
): void {
  let field = 0;
  let index = 0;
  while (index < line.length) {
    let code = line.charCodeAt(index);
    if (code === SPACE || code === TAB) {
      index += 1;
      continue;
    }
    const start = index;
    // A whole decimal number, the common case, is read as it is scanned.
    let value = 0;
    let isDecimal = true;
    while (index < line.length && code !== SPACE && code !== TAB) {
      if (code >= DIGIT_0 && code <= DIGIT_9) value = value * 10 + (code - DIGIT_0);
      else isDecimal = false;
      index += 1;
      code = line.charCodeAt(index);
    }
    if (field < positions) {
      if (!isDecimal) {
        const text = line.slice(start, index);
        if (!SUBPOSITION.test(text)) throw fail(at(), `"${text.slice(0, 40)}" is not a position`);
      }
    } else {
      const count = field - positions;
      if (count >= events.length) {
        const total = count + 1 + countFields(line, index);
        throw fail(at(), `${total} counts for ${events.length} event(s) (${describeEvents(events)})`);
      }
      if (!isDecimal || !Number.isSafeInteger(value)) value = readCount(line.slice(start, index), at(), fail);
      if (sums !== null) {
        const sum = (sums[count] ?? 0) + value;
        if (!Number.isSafeInteger(sum)) throw fail(at(), `the ${events[count]} counts add up beyond 2^53`);
        sums[count] = sum;
      }
    }
    field += 1;
  }
  if (field < positions) throw fail(at(), `a cost line needs ${positions} position(s) before its counts`);
}

/** How many fields a line holds from `from` on. */
function countFields(line: string, from: number): number {
  return line
    .slice(from)
    .split(/[ \t]+/)
    .filter((field) => field !== "").length;
}

function readCount(text: string, at: string, fail: Fail): number {
  if (!COUNT.test(text)) throw fail(at, `"${text.slice(0, 40)}" is not a count (a whole number)`);
  const value = Number(text);
  if (!Number.isSafeInteger(value))
    throw fail(at, `the count ${text.slice(0, 40)} is beyond 2^53, which cannot be read exactly`);
  return value;
}

/** "Ir Dr Dw", shortened past 8 events. */
function describeEvents(events: readonly string[]): string {
  return events.length > 8 ? `${events.slice(0, 8).join(" ")} …` : events.join(" ");
}

/**
 * The part's counts: its stated total (callgrind's `totals:`, else `summary:`; cachegrind's `summary:`)
 * when it states one, which must agree with its cost lines; else the sum of those lines.
 */
function closePart(part: OpenPart, format: ValgrindFormat, fail: Fail): ProfilePart {
  const events = part.events ?? [];
  const stated = format === "callgrind" ? (part.totals ?? part.summary) : (part.summary ?? part.totals);
  const base = { number: part.number, trigger: part.trigger, events, eventsAt: part.eventsAt };
  if (stated === null) return { ...base, counts: part.sums, isSummed: true };
  const key = stated === part.totals ? "totals" : "summary";
  const fields = stated.text.split(/\s+/).filter((field) => field !== "");
  if (fields.length === 0) throw fail(stated.at, `"${key}:" states no counts`);
  // cg_annotate requires one count per event; callgrind leaves trailing zero counts off, as on cost lines.
  if (fields.length > events.length || (format === "cachegrind" && fields.length !== events.length)) {
    throw fail(
      stated.at,
      `"${key}:" states ${fields.length} count(s) for ${events.length} event(s) (${describeEvents(events)})`,
    );
  }
  const counts = events.map((_, index) =>
    index < fields.length ? readCount(fields[index] ?? "", stated.at, fail) : 0,
  );
  const differs = events.findIndex((_, index) => counts[index] !== (part.sums[index] ?? 0));
  if (differs !== -1) {
    const event = events[differs] ?? "";
    throw fail(
      stated.at,
      `"${key}:" gives ${event} ${counts[differs]}, but the part's cost lines add up to ${part.sums[differs]}: the file was cut short or edited`,
    );
  }
  return { ...base, counts, isSummed: false };
}

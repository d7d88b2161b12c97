/**
 * Valgrind's bad input, named by file and line: broken counts, summaries and events, files cut short, the
 * size limits, a large file read in reasonable time, and seeded mutations of the real files.
 */
import { describe, expect, it } from "vitest";
import { InputError } from "../../input-error";
import { createSeededRandom } from "../../stats/random";
import { errorOf } from "../fixtures/input-error-of";
import { readFixture } from "../fixtures/read-fixture";
import { mutate } from "../fixtures/text-mutations";
import { parseUpload } from "..";
import { parseCachegrind, parseCallgrind } from "./valgrind";
import { MAX_EVENTS, MAX_FIELD_LINE, MAX_PARTS } from "./valgrind-profile";
import { CACHEGRIND, callgrindOf, dumpPart, instructionsOf, ROOT } from "./valgrind.fixture";

describe("valgrind: bad input, named by file and line", () => {
  const fixture = readFixture(`${ROOT}/baseline/cachegrind/cachegrind.out.sort-1000`);

  it.each([
    [
      "no events line before the costs",
      CACHEGRIND.replace("events: Ir Dr\n", ""),
      "x: line 5",
      /before any "events:" line/,
    ],
    ["a count that is not a number", CACHEGRIND.replace("2 10 0", "2 1O 0"), "x: line 7", /"1O" is not a count/],
    ["a negative count", CACHEGRIND.replace("2 10 0", "2 -10 0"), "x: line 7", /"-10" is not a count/],
    ["more counts than events", CACHEGRIND.replace("2 10 0", "2 10 0 4"), "x: line 7", /3 counts for 2 event/],
    ["a count beyond 2^53", CACHEGRIND.replace("2 10 0", "2 18446744073705119539 0"), "x: line 7", /beyond 2\^53/],
    [
      "a summary of fewer counts than events",
      CACHEGRIND.replace("summary: 15 2", "summary: 15"),
      "x: line 8",
      /1 count\(s\) for 2 event/,
    ],
    [
      "a summary of more counts than events",
      CACHEGRIND.replace("summary: 15 2", "summary: 15 2 0"),
      "x: line 8",
      /3 count\(s\) for 2 event/,
    ],
    [
      "a summary that is not the cost lines' sum",
      CACHEGRIND.replace("summary: 15 2", "summary: 16 2"),
      "x: line 8",
      /gives Ir 16, but the part's cost lines add up to 15: the file was cut short or edited/,
    ],
    [
      "an events line without Ir",
      CACHEGRIND.replace("events: Ir Dr", "events: Dr Dw"),
      "x: line 3",
      /"Ir" is not among the events \(Dr Dw\)/,
    ],
    ["an event named twice", CACHEGRIND.replace("events: Ir Dr", "events: Ir Ir"), "x: line 3", /named twice/],
    [
      "a line of another format",
      CACHEGRIND.replace("fn=main\n", "fn=main\nhello world\n"),
      "x: line 6",
      /is not a line of the cachegrind format/,
    ],
    ["a position that is not one", CACHEGRIND.replace("1 5 2", "1x 5 2"), "x: line 6", /"1x" is not a position/],
  ])("%s", (_, text, path, message) => {
    const error = errorOf(() => parseCachegrind(text, "x"));
    expect(error).toBeInstanceOf(InputError);
    expect(error.code).toBe("malformed");
    expect(error.details[0]?.path).toBe(path);
    expect(error.message).toMatch(message);
  });

  it("refuses a file with no events line at all, naming its last line", () => {
    const error = errorOf(() => parseCachegrind("desc: I1 cache: 1\ncmd: ./a\n", "x"));
    expect(error.details[0]?.path).toBe("x: line 2");
    expect(error.message).toMatch(/no "events:" line/);
  });

  it("refuses a real file cut short: its costs no longer add up to its total", () => {
    const lines = fixture.split("\n");
    // Cut in the middle, then the summary of the whole file put back: the cost lines no longer add up to it.
    const cut = [...lines.slice(0, 2000), lines.find((line) => line.startsWith("summary:"))!].join("\n");
    const error = errorOf(() => parseCachegrind(cut, "cachegrind.out.sort-1000"));
    expect(error.details[0]?.path).toBe("cachegrind.out.sort-1000: line 2001");
    const callgrind = readFixture(`${ROOT}/baseline/callgrind-all/callgrind.out.all`);
    // callgrind: part 3 cut before its totals: line; its header's summary: 0 is no match for its costs.
    const cutCallgrind = callgrind.slice(0, callgrind.indexOf("totals:", callgrind.indexOf("part: 3")));
    const partError = errorOf(() => parseCallgrind(cutCallgrind, "callgrind.out.all"));
    const callgrindLines = callgrind.split("\n");
    const part3 = callgrindLines.indexOf("part: 3");
    const summary3 = callgrindLines.findIndex((line, index) => index > part3 && line.startsWith("summary:"));
    expect(partError.details[0]?.path).toBe(`callgrind.out.all: line ${summary3 + 1}`);
    expect(partError.message).toMatch(
      /"summary:" gives Ir 0, but the part's cost lines add up to \d+: the file was cut short or edited/,
    );
  });

  it("refuses a line too long to split, too many events and too many parts", () => {
    const long = CACHEGRIND.replace("2 10 0", `2 10 ${"0".repeat(MAX_FIELD_LINE)}`);
    expect(errorOf(() => parseCachegrind(long, "x")).details[0]?.path).toBe("x: line 7");
    const events = CACHEGRIND.replace(
      "events: Ir Dr",
      `events: Ir ${Array.from({ length: MAX_EVENTS }, (_, i) => `E${i}`).join(" ")}`,
    );
    expect(errorOf(() => parseCachegrind(events, "x")).message).toMatch(/at most 100/);
    const many = callgrindOf(
      ...Array.from({ length: MAX_PARTS + 1 }, (_, i) => dumpPart(i + 1, `Client Request: b${i}`, 1)),
    );
    expect(errorOf(() => parseCallgrind(many, "x")).message).toMatch(/more than 1000 parts/);
  });

  it("reads two million cost lines (45 MB) line by line in reasonable time, and a 10 MB name line", () => {
    const simulated = readFixture(`${ROOT}/baseline/cachegrind-cache-sim/cachegrind.out.lookup`);
    const body = simulated.split("\n").filter((line) => /^\d/.test(line));
    const costLines = Array.from({ length: 2_000_000 }, (_, i) => body[i % body.length]!);
    const sums = Array.from({ length: 9 }, () => 0);
    for (const line of costLines)
      line
        .split(" ")
        .slice(1)
        .forEach((count, index) => (sums[index]! += Number(count)));
    const events = "Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw";
    const fn = `fn=${"x".repeat(10_000_000)}`;
    const text = `desc: x\ncmd: ./big run\nevents: ${events}\nfl=a.c\n${fn}\n${costLines.join("\n")}\nsummary: ${sums.join(" ")}\n`;
    expect(text.length).toBeGreaterThan(45e6);
    const started = performance.now();
    const run = parseCachegrind(text, "big");
    expect(performance.now() - started).toBeLessThan(15_000);
    expect(instructionsOf(run)).toEqual({ run: sums[0] });
    expect(run.endpoints[0]?.metrics.DLmw?.value).toBe(sums[8]);
  });

  it.each([
    ["cachegrind", `${ROOT}/baseline/cachegrind-cache-sim/cachegrind.out.lookup`],
    ["callgrind", `${ROOT}/baseline/callgrind-all/callgrind.out.all`],
  ])("reads a mutated %s file or refuses it with an InputError, never another error", (format, path) => {
    const random = createSeededRandom(20261129);
    const original = readFixture(path);
    const outcomes = { read: 0, refused: 0 };
    for (let index = 0; index < 200; index++) {
      let text = original;
      for (let mutations = 1 + random.integer(3); mutations > 0; mutations--) text = mutate(random, text);
      try {
        parseUpload({ files: [{ name: null, text }], format });
        outcomes.read += 1;
      } catch (error) {
        if (!(error instanceof InputError)) throw error;
        outcomes.refused += 1;
      }
    }
    expect(outcomes.read).toBeGreaterThan(0);
    expect(outcomes.refused).toBeGreaterThan(0);
  });
});

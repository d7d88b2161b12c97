import { describe, expect, it } from "vitest";
import { InputError } from "../../input-error";
import type { ParsedRun } from "../../run";
import { createSeededRandom } from "../../stats/random";
import { inspectFile } from "../detect";
import { errorOf } from "../fixtures/input-error-of";
import { filesIn, readFixture } from "../fixtures/read-fixture";
import { mutate } from "../fixtures/text-mutations";
import { parseUpload } from "..";
import { isCachegrindText, isCallgrindText, parseCachegrind, parseCallgrind, parseValgrindFiles } from "./valgrind";
import { MAX_EVENTS, MAX_FIELD_LINE, MAX_PARTS } from "./valgrind-profile";

const ROOT = "micro/valgrind";
const RUNS = ["baseline", "baseline-stress", "changed"] as const;
const BENCHMARKS = ["sort 100", "sort 1000", "sort 10000", "join", "lookup", "checksum"];
/** One process per benchmark: the file names run.sh gives them (fixtures/micro/valgrind/README.md). */
const SLUGS = ["sort-100", "sort-1000", "sort-10000", "join", "lookup", "checksum"];

/**
 * The test's own reading of a Valgrind file, independent of the parser: per part, its trigger, its
 * events and the counts of its stated total (callgrind `totals:`, cachegrind `summary:`), zeros added
 * for counts left off the end; and the command.
 */
function readBack(text: string) {
  const cmd = /^cmd:\s+(.*)$/m.exec(text)?.[1]?.trim() ?? null;
  const chunks = /^part: /m.test(text)
    ? text.split(/^(?=part: )/m).filter((chunk) => chunk.startsWith("part: "))
    : [text];
  let events: string[] = [];
  const parts = chunks.map((chunk) => {
    events = /^events: (.*)$/m.exec(chunk)?.[1]?.trim().split(/\s+/) ?? events;
    const stated = (/^totals: (.*)$/m.exec(chunk) ?? /^summary: (.*)$/m.exec(chunk))![1]!
      .trim()
      .split(/\s+/)
      .map(Number);
    const counts = Object.fromEntries(events.map((event, index) => [event, stated[index] ?? 0]));
    return { trigger: /^desc: Trigger: (.*)$/m.exec(chunk)?.[1] ?? null, counts };
  });
  return { cmd, parts };
}

const instructionsOf = (run: ParsedRun) =>
  Object.fromEntries(run.endpoints.map((endpoint) => [endpoint.name, endpoint.metrics.instructions?.value]));

const upload = (folder: string) => {
  const names = filesIn(folder);
  return parseUpload({ files: names.map((name) => ({ name, text: readFixture(`${folder}/${name}`) })) });
};

describe.each(RUNS)("valgrind fixtures, %s run", (runFolder) => {
  const folder = `${ROOT}/${runFolder}`;

  it("cachegrind, one file per benchmark: named by the command's arguments, Ir as exact instructions", () => {
    for (const [index, slug] of SLUGS.entries()) {
      const path = `${folder}/cachegrind/cachegrind.out.${slug}`;
      const text = readFixture(path);
      const expected = readBack(text);
      const run = parseCachegrind(text, "body");
      expect(run.format).toBe("cachegrind");
      expect(run.tool).toBe("valgrind");
      expect(run.toolVersion).toBeNull();
      expect(run.environment.testbed).toBeNull();
      expect(run.notes).toEqual([]);
      expect(run.endpoints).toHaveLength(1);
      const [benchmark] = run.endpoints;
      expect(benchmark?.name).toBe(BENCHMARKS[index]);
      expect(benchmark?.fullName).toBe(`./micro_ir ${BENCHMARKS[index]}`);
      expect(benchmark?.protocol).toBe("benchmark");
      expect(benchmark?.metrics).toEqual({
        instructions: { value: expected.parts[0]?.counts.Ir, unit: "instructions", better: "lower", exact: true },
      });
      // No time: latency, samples and throughput stay unknown.
      expect(benchmark?.latency).toEqual({ minMs: null, meanMs: null, maxMs: null, stdDevMs: null, percentiles: {} });
      expect([benchmark?.requests, benchmark?.throughput, benchmark?.histogram]).toEqual([null, null, null]);
    }
  });

  it("cachegrind, the six files as one multipart upload: one benchmark each, in upload order", () => {
    const parsed = upload(`${folder}/cachegrind`);
    expect(parsed.format).toBe("cachegrind");
    const expected = Object.fromEntries(
      filesIn(`${folder}/cachegrind`).map((name) => {
        const back = readBack(readFixture(`${folder}/cachegrind/${name}`));
        return [back.cmd!.replace("./micro_ir ", ""), back.parts[0]?.counts.Ir];
      }),
    );
    expect(instructionsOf(parsed.run)).toEqual(expected);
    expect(parsed.run.aggregate.requests).toBeNull();
  });

  it("cachegrind with the cache simulation: every other event kept, never judged", () => {
    const text = readFixture(`${folder}/cachegrind-cache-sim/cachegrind.out.lookup`);
    const expected = readBack(text).parts[0]!.counts;
    expect(Object.keys(expected)).toEqual(["Ir", "I1mr", "ILmr", "Dr", "D1mr", "DLmr", "Dw", "D1mw", "DLmw"]);
    const [lookup] = parseCachegrind(text, "cachegrind.out.lookup").endpoints;
    expect(lookup?.name).toBe("lookup");
    const { Ir, ...others } = expected;
    expect(lookup?.metrics).toEqual({
      instructions: { value: Ir, unit: "instructions", better: "lower", exact: true },
      ...Object.fromEntries(
        Object.entries(others).map(([event, value]) => [event, { value, unit: null, better: null }]),
      ),
    });
  });

  it("callgrind, one process per benchmark (--toggle-collect): named by the arguments, totals: as Ir, Valgrind's version", () => {
    for (const [index, slug] of SLUGS.entries()) {
      const text = readFixture(`${folder}/callgrind/callgrind.out.${slug}`);
      const run = parseCallgrind(text, `callgrind.out.${slug}`);
      expect(run.format).toBe("callgrind");
      expect(run.toolVersion).toBe("3.19.0");
      expect(run.notes).toEqual([]);
      expect(instructionsOf(run)).toEqual({ [BENCHMARKS[index]!]: readBack(text).parts[0]?.counts.Ir });
      expect(run.endpoints[0]?.metrics.instructions?.exact).toBe(true);
    }
  });

  it("callgrind, one process with a dump per benchmark (--combine-dumps=yes): one benchmark per part, named by its trigger", () => {
    const text = readFixture(`${folder}/callgrind-all/callgrind.out.all`);
    const expected = readBack(text);
    expect(expected.parts.map((part) => part.trigger)).toEqual([
      ...BENCHMARKS.map((name) => `Client Request: ${name}`),
      "Program termination",
    ]);
    const run = parseCallgrind(text, "body");
    // The 7th part, what ran after the last dump, is no benchmark (and counted nothing: no note).
    expect(run.endpoints.map((endpoint) => endpoint.name)).toEqual(BENCHMARKS);
    expect(run.notes).toEqual([]);
    for (const [index, endpoint] of run.endpoints.entries()) {
      const { Ir, ...others } = expected.parts[index]!.counts;
      expect(endpoint.fullName).toBe(`./micro_ir all (part ${index + 1}, Client Request: ${BENCHMARKS[index]})`);
      expect(endpoint.metrics).toEqual({
        instructions: { value: Ir, unit: "instructions", better: "lower", exact: true },
        ...Object.fromEntries(
          Object.entries(others).map(([event, value]) => [event, { value, unit: null, better: null }]),
        ),
      });
    }
    // CodSpeed's options: the cache simulation and --collect-systime's events, written after Ir.
    expect(Object.keys(run.endpoints[0]!.metrics)).toEqual([
      "instructions",
      "Dr",
      "Dw",
      "I1mr",
      "D1mr",
      "D1mw",
      "ILmr",
      "DLmr",
      "DLmw",
      "sysCount",
      "sysTime",
      "sysCpuTime",
    ]);
  });

  it("callgrind, one file per dump (the default): the same benchmarks and counts as one file of parts", () => {
    const parsed = upload(`${folder}/callgrind-split`);
    expect(parsed.format).toBe("callgrind");
    expect(parsed.run.endpoints.map((endpoint) => endpoint.name)).toEqual(BENCHMARKS);
    const combined = parseCallgrind(readFixture(`${folder}/callgrind-all/callgrind.out.all`), "callgrind.out.all");
    expect(instructionsOf(parsed.run)).toEqual(instructionsOf(combined));
    // A dump's file alone is its benchmark; the termination file alone is the whole process, by its argument.
    expect(instructionsOf(parseCallgrind(readFixture(`${folder}/callgrind-split/callgrind.out.split.4`), "x"))).toEqual(
      {
        join: instructionsOf(combined).join,
      },
    );
    expect(instructionsOf(parseCallgrind(readFixture(`${folder}/callgrind-split/callgrind.out.split`), "x"))).toEqual({
      all: 0,
    });
  });
});

describe("valgrind fixtures: instruction counts repeat exactly, and a code change shows exactly", () => {
  const WAYS = ["cachegrind", "callgrind", "callgrind-split"] as const;
  const countsOf = (run: string, way: (typeof WAYS)[number]) => instructionsOf(upload(`${ROOT}/${run}/${way}`).run);

  it.each(WAYS)("%s: the base run made twice (once under stress-ng --cpu 2) counts the same instructions", (way) => {
    expect(countsOf("baseline-stress", way)).toEqual(countsOf("baseline", way));
  });

  it("while a time figure of the same runs (callgrind's sysTime, --collect-systime) does not repeat", () => {
    const sysTimes = (run: string) =>
      parseCallgrind(readFixture(`${ROOT}/${run}/callgrind-all/callgrind.out.all`), "x").endpoints.map(
        (endpoint) => endpoint.metrics.sysTime?.value,
      );
    expect(sysTimes("baseline-stress")).not.toEqual(sysTimes("baseline"));
  });

  it("the slower join (snprintf) counts about 3.9× the instructions in every way; one process per benchmark leaves the others exactly as they were", () => {
    for (const way of WAYS) {
      const base = countsOf("baseline", way);
      const changed = countsOf("changed", way);
      expect(changed.join! / base.join!, way).toBeGreaterThan(3.8);
      expect(changed.join! / base.join!, way).toBeLessThan(4);
      for (const name of ["sort 100", "sort 1000", "sort 10000", "checksum"])
        expect(changed[name], `${way} ${name}`).toBe(base[name]);
      if (way === "callgrind-split") {
        // One process for all: lookup's first snprintf no longer resolves the symbol (join did it first),
        // so lookup counts 665 instructions fewer: the lazy binding moved (docs/benchmarks.md).
        expect(changed.lookup! - base.lookup!).toBe(-665);
      } else expect(changed.lookup).toBe(base.lookup);
    }
  });
});

describe("valgrind detection", () => {
  it("knows each fixture as its one format", () => {
    for (const run of RUNS) {
      for (const way of ["cachegrind", "cachegrind-cache-sim", "callgrind", "callgrind-all", "callgrind-split"]) {
        for (const name of filesIn(`${ROOT}/${run}/${way}`)) {
          const inspection = inspectFile(readFixture(`${ROOT}/${run}/${way}/${name}`), name);
          expect({ name, inspection }).toEqual({
            name,
            inspection: { kind: "text", formats: [way.startsWith("cachegrind") ? "cachegrind" : "callgrind"] },
          });
        }
      }
    }
  });

  it("reads the markers, not the file name", () => {
    expect(isCachegrindText("desc: I1 cache: 32768 B\ncmd: ./a\nevents: Ir\nfl=a.c\n")).toBe(true);
    expect(isCachegrindText("cmd: ./a\nevents: Ir\n")).toBe(true);
    expect(isCachegrindText("# cachegrind format\nevents: Ir\nsummary: 1\n")).toBe(true);
    // A cachegrind header without its events line is still cachegrind (its parser says what is missing).
    expect(isCachegrindText("desc: I1 cache: 32768 B\ncmd: ./a\nfl=a.c\n")).toBe(true);
    expect(isCachegrindText("desc: nothing else\n")).toBe(false);
    expect(isCachegrindText("# callgrind format\nversion: 1\ncmd: ./a\nevents: Ir\n")).toBe(false);
    expect(isCallgrindText("# callgrind format\nversion: 1\ncreator: callgrind-3.19.0\n")).toBe(true);
    expect(isCallgrindText("version: 1\ncreator: callgrind-3.13.0\npid: 1\ncmd: ./a\n")).toBe(true);
    expect(isCallgrindText("version: 1\npositions: line\nevents: Ir\n")).toBe(true);
    expect(isCallgrindText("version: 1\nsomething else\n")).toBe(false);
    expect(isCallgrindText("cmd: ./a\nevents: Ir\n")).toBe(false);
  });

  it("takes ?format=valgrind (both formats) and the format ids", () => {
    const text = readFixture(`${ROOT}/baseline/callgrind-all/callgrind.out.all`);
    expect(parseUpload({ files: [{ name: null, text }], format: "valgrind" }).format).toBe("callgrind");
    expect(parseUpload({ files: [{ name: null, text }], format: "iai-callgrind" }).format).toBe("callgrind");
    const cachegrind = readFixture(`${ROOT}/baseline/cachegrind/cachegrind.out.join`);
    expect(parseUpload({ files: [{ name: null, text: cachegrind }], format: "cachegrind" }).format).toBe("cachegrind");
  });
});

const CACHEGRIND =
  "desc: I1 cache: 32768 B\ncmd: ./bench sort 10\nevents: Ir Dr\nfl=a.c\nfn=main\n1 5 2\n2 10 0\nsummary: 15 2\n";
const callgrindOf = (...parts: string[]) =>
  ["# callgrind format", "version: 1", "creator: callgrind-3.19.0", "pid: 42", "cmd:  ./bench all", ...parts].join(
    "\n",
  );
const dumpPart = (number: number, trigger: string, ir: number) =>
  [
    `part: ${number}`,
    `desc: Trigger: ${trigger}`,
    "positions: line",
    "events: Ir",
    "summary: 0",
    "fl=(1) a.c",
    "fn=(1) f",
    `3 ${ir}`,
    `totals: ${ir}`,
    "",
  ].join("\n");

describe("valgrind naming", () => {
  it("falls back from the arguments to the file name, then to the program (a default pid name says nothing)", () => {
    const noArgs = CACHEGRIND.replace("cmd: ./bench sort 10", "cmd: /opt/ci/bench");
    expect(parseCachegrind(CACHEGRIND, "body").endpoints[0]?.name).toBe("sort 10");
    expect(parseCachegrind(noArgs, "cachegrind.out.encode").endpoints[0]?.name).toBe("cachegrind.out.encode");
    expect(parseCachegrind(noArgs, "target/iai/cachegrind.out.encode").endpoints[0]?.name).toBe(
      "cachegrind.out.encode",
    );
    expect(parseCachegrind(noArgs, "cachegrind.out.31337").endpoints[0]?.name).toBe("bench");
    expect(parseCachegrind(noArgs, "body").endpoints[0]?.name).toBe("bench");
    expect(parseCachegrind(CACHEGRIND.replace("cmd: ./bench sort 10\n", ""), "body").endpoints[0]?.name).toBe(
      "cachegrind",
    );
  });

  it("names dumps by their trigger: a client request's name, `part N` for an unnamed one, --dump-after as written", () => {
    const run = parseCallgrind(
      callgrindOf(
        dumpPart(1, "Client Request: encode json", 10),
        dumpPart(2, "Client Request", 20),
        dumpPart(3, "--dump-after=bench_sort", 30),
        dumpPart(4, "", 40),
        dumpPart(5, "Program termination", 0),
      ),
      "callgrind.out.42",
    );
    expect(instructionsOf(run)).toEqual({
      "encode json": 10,
      "part 2": 20,
      "--dump-after=bench_sort": 30,
      "part 4": 40,
    });
  });

  it("leaves out what ran after the last dump, with a note when it counted anything", () => {
    const run = parseCallgrind(
      callgrindOf(dumpPart(1, "Client Request: a", 10), dumpPart(2, "Program termination", 4765)),
      "out",
    );
    expect(instructionsOf(run)).toEqual({ a: 10 });
    expect(run.notes).toEqual([
      "out (part 2): Program termination counts what ran after the last dump (4765 instructions): not a benchmark, left out",
    ]);
  });

  it("refuses two files or parts of one benchmark, naming both", () => {
    const error = errorOf(() =>
      parseValgrindFiles("cachegrind", [
        { name: "cachegrind.out.a", text: CACHEGRIND },
        { name: "cachegrind.out.b", text: CACHEGRIND },
      ]),
    );
    expect(error.code).toBe("malformed");
    expect(error.message).toContain('benchmark "sort 10" is both cachegrind.out.a and cachegrind.out.b');
    const parts = errorOf(() =>
      parseCallgrind(callgrindOf(dumpPart(1, "--dump-after=f", 1), dumpPart(2, "--dump-after=f", 2)), "out"),
    );
    expect(parts.details[0]?.path).toBe("out (part 2)");
    expect(parts.message).toContain("out (part 1)");
  });

  it("refuses a cachegrind and a callgrind file as one run", () => {
    const error = errorOf(() =>
      parseUpload({
        files: [
          { name: "cachegrind.out.join", text: readFixture(`${ROOT}/baseline/cachegrind/cachegrind.out.join`) },
          { name: "callgrind.out.join", text: readFixture(`${ROOT}/baseline/callgrind/callgrind.out.join`) },
        ],
      }),
    );
    expect(error.message).toBe("These files do not make one run together");
    expect(error.details[0]?.message).toContain("Valgrind's cachegrind (or callgrind) output files of one run");
  });

  it("counts the cost lines of a file that states no total, and says so", () => {
    const run = parseCachegrind(CACHEGRIND.replace("summary: 15 2\n", ""), "cachegrind.out.x");
    expect(run.endpoints[0]?.metrics.instructions?.value).toBe(15);
    expect(run.notes).toEqual([
      "cachegrind.out.x states no summary: or totals: line: its counts are the sum of its cost lines (a file cut short would count less)",
    ]);
  });

  it("does not count a call's inclusive cost again, reads compressed and hex positions, and trailing counts left off", () => {
    const text = callgrindOf(
      "part: 1",
      "positions: instr line",
      "events: Ir Dr",
      "summary: 0",
      "fn=(1) main",
      "0x1000 3 2 1",
      "+2 * 3",
      "cfn=(2) f",
      "calls=1 0x2000 9",
      "+1 -1 500 70",
      "jump=3 +5 *",
      "* *",
      "fn=(2)",
      "0x2000 9 500 70",
      "totals: 505 71",
    );
    expect(parseCallgrind(text, "x").endpoints[0]?.metrics).toEqual({
      instructions: { value: 505, unit: "instructions", better: "lower", exact: true },
      Dr: { value: 71, unit: null, better: null },
    });
  });
});

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

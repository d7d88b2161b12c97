/**
 * Valgrind on the real files: each run's cachegrind and callgrind files, run every way (checked against the
 * test's own reading of their totals), counts that repeat exactly and a code change that shows exactly,
 * and detection.
 */
import { describe, expect, it } from "vitest";
import { inspectFile } from "../detect";
import { filesIn, readFixture } from "../fixtures/read-fixture";
import { parseUpload } from "..";
import { isCachegrindText, isCallgrindText, parseCachegrind, parseCallgrind } from "./valgrind";
import { instructionsOf, ROOT } from "./valgrind.fixture";

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

/**
 * Valgrind naming on hand-written files: a benchmark's name from the arguments, the file or the trigger,
 * the part after the last dump left out, one benchmark twice refused, and how cost lines are counted.
 */
import { describe, expect, it } from "vitest";
import { errorOf } from "../fixtures/input-error-of";
import { readFixture } from "../fixtures/read-fixture";
import { parseUpload } from "..";
import { parseCachegrind, parseCallgrind, parseValgrindFiles } from "./valgrind";
import { CACHEGRIND, callgrindOf, dumpPart, instructionsOf, ROOT } from "./valgrind.fixture";

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

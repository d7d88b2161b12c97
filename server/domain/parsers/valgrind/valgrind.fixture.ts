/**
 * Valgrind input for the tests beside it (valgrind, valgrind-naming, valgrind-bad-input): where the real
 * files are, each benchmark's instruction count, and small hand-written files (cachegrind, callgrind parts).
 */
import type { ParsedRun } from "../../run";

/** The real files (fixtures/micro/valgrind/README.md): a folder per run, in it a folder per way Valgrind ran. */
export const ROOT = "micro/valgrind";

/** Each benchmark's instruction count, by name. */
export const instructionsOf = (run: ParsedRun) =>
  Object.fromEntries(run.endpoints.map((endpoint) => [endpoint.name, endpoint.metrics.instructions?.value]));

/** A cachegrind file of two cost lines and their summary (Ir 15, Dr 2): the benchmark `sort 10`. */
export const CACHEGRIND =
  "desc: I1 cache: 32768 B\ncmd: ./bench sort 10\nevents: Ir Dr\nfl=a.c\nfn=main\n1 5 2\n2 10 0\nsummary: 15 2\n";

/** A callgrind file of one process (`./bench all`, pid 42) holding these parts. */
export const callgrindOf = (...parts: string[]) =>
  ["# callgrind format", "version: 1", "creator: callgrind-3.19.0", "pid: 42", "cmd:  ./bench all", ...parts].join(
    "\n",
  );

/** A callgrind dump part: its number, its trigger and one cost line of `ir` instructions, its totals: the same. */
export const dumpPart = (number: number, trigger: string, ir: number) =>
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

/**
 * The valgrind parsers' public face: `VALGRIND_TOOL`, everything the format registries know of this tool's
 * formats (what the docs say of each, how it is read, its markers, its latency resolution), which tools.ts
 * lists. The files beside it are this tool's own.
 */
import { FULL_PRECISION, type ToolDescriptor } from "../tool-descriptor";
import { isCachegrindText, isCallgrindText, parseCachegrind, parseCallgrind, parseValgrindFiles } from "./valgrind";

/** Valgrind: cachegrind's and callgrind's output files (instruction counts). */
export const VALGRIND_TOOL: ToolDescriptor = {
  tool: "valgrind",
  formats: [
    {
      info: {
        id: "cachegrind",
        extension: ".out",
        title: "Valgrind cachegrind output file",
        command:
          "valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=cachegrind.out.sort-1000 ./bench sort 1000",
        upload: "body or multipart",
        keeps:
          "one benchmark per file (one process), named by the cmd: line's arguments after the program (`sort 1000`), else the file's name, else the program: its Ir (instructions executed, from summary:, checked against the cost lines) as the metric instructions (lower is better, exact: a change is a change of what ran, judged without noise), every other event (with --cache-sim=yes: I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw) under its name, shown and never judged; several files (one per benchmark) as one multipart upload",
        drops:
          "the per-function and per-line costs, the simulated caches' sizes (desc:); no time (latency stays empty), no testbed (instruction counts do not depend on the machine's load, but do on the binary, compiler, libraries, CPU features, inputs and, for a whole process, its environment and arguments), no Valgrind version (not in the file)",
        resolution: "no latency statistic (instruction counts, exact whole numbers)",
        checkedOn: "real output",
        recipe: `for b in "sort 1000" join; do
  valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file="cachegrind.out.\${b// /-}" ./bench $b
done
files=(); for f in cachegrind.out.*; do files+=(-F "file=@$f"); done
curl "\${files[@]}" $AUTH "$RUNS?branch=main&commit=9f1c2e7"`,
      },
      parser: { kind: "text", parse: parseCachegrind },
      markers: {
        // cachegrind's `desc:`/`cmd:`/`events:` header.
        text: isCachegrindText,
      },
      // Valgrind's files hold instruction counts (and other events), no time: no latency statistic to round.
      latency: { rule: FULL_PRECISION },
    },
    {
      info: {
        id: "callgrind",
        extension: ".out",
        title: "Valgrind callgrind output file",
        command:
          'valgrind --tool=callgrind --toggle-collect=bench_sort --callgrind-out-file=callgrind.out.sort-1000 ./bench sort 1000   (or one process with a CALLGRIND_DUMP_STATS_AT("name") per benchmark)',
        upload: "body or multipart",
        keeps:
          "one benchmark per dump (part) named by its trigger (CALLGRIND_DUMP_STATS_AT(\"sort 1000\") → `sort 1000`; --dump-after=fn as written), from one file of parts (--combine-dumps=yes) or one file per dump; a process that did not dump (--toggle-collect, as iai-callgrind runs it) is one benchmark named as cachegrind's: its Ir (from totals:, checked against the cost lines) as the metric instructions (lower is better, exact), every other event (cache simulation, branches, --collect-systime's sysCount/sysTime) under its name, never judged; Valgrind's version (creator:)",
        drops:
          "the per-function, call and jump costs; the part after a process's last dump (Program termination: not a benchmark; a note when it counted anything); the header summary: (not the part's count after a dump); no time (latency stays empty), no testbed (as cachegrind)",
        resolution: "no latency statistic (instruction counts, exact whole numbers)",
        checkedOn: "real output",
        recipe: `# ./bench all runs each benchmark between CALLGRIND_START_INSTRUMENTATION and CALLGRIND_DUMP_STATS_AT("<name>")
valgrind --tool=callgrind --instr-atstart=no --combine-dumps=yes --callgrind-out-file=callgrind.out.all ./bench all
curl --data-binary @callgrind.out.all $AUTH "$RUNS?branch=main&commit=9f1c2e7"
# one process per benchmark (iai-callgrind's way):
curl -F a=@callgrind.out.sort-1000 -F b=@callgrind.out.join $AUTH "$RUNS?branch=main"`,
      },
      parser: { kind: "text", parse: parseCallgrind },
      markers: {
        // callgrind's `# callgrind format`, `creator: callgrind-…`.
        text: isCallgrindText,
      },
      // As cachegrind: instruction counts, no time.
      latency: { rule: FULL_PRECISION },
    },
  ],
  fileSets: {
    description: "Valgrind's cachegrind (or callgrind) output files of one run",
    sets: [
      { formats: ["cachegrind"], parse: (files) => parseValgrindFiles("cachegrind", files) },
      { formats: ["callgrind"], parse: (files) => parseValgrindFiles("callgrind", files) },
    ],
  },
};

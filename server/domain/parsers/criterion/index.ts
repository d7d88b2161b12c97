/**
 * The criterion parsers' public face: `CRITERION_TOOL`, everything the format registries know of this tool's
 * formats (what the docs say of each, how it is read, its markers, its latency resolution), which tools.ts
 * lists. The files beside it are this tool's own.
 */
import { FULL_PRECISION, type ToolDescriptor } from "../tool-descriptor";
import { isCriterionJson, parseCriterionJson, parseCriterionSet } from "./criterion";

/** Criterion.rs: the files of target/criterion (built from the documentation). */
export const CRITERION_TOOL: ToolDescriptor = {
  tool: "criterion",
  formats: [
    {
      info: {
        id: "criterion-json",
        extension: ".json",
        unnamedTarget: true,
        title: "Criterion.rs target/criterion files",
        command: "cargo bench   (writes target/criterion/<benchmark>/new/benchmark.json, estimates.json, sample.json)",
        upload: "body or multipart",
        keeps:
          "one benchmark per folder, named by its benchmark.json's full_id (files are matched by the folder in their upload names, so send each as filename=<path>): sample.json's times per iteration (times[i] / iters[i] ns) as samples, estimates.json's slope as the metric slope (ns/iter), a declared throughput as B/s or elem/s; an estimates.json alone gives its mean, median and standard deviation, named with ?endpoint=",
        drops:
          "Criterion's bootstrap confidence intervals and standard errors, median_abs_dev, tukey.json, base/ and change/ (the previous run and Criterion's own comparison); Criterion's version and the hardware (not in the files); at most 50 files per upload (16 benchmarks with their three files)",
        resolution: "full precision (f64 ns as serde_json writes them)",
        checkedOn: "documented format",
        recipe: `cd target/criterion
files=(); while IFS= read -r f; do files+=(-F "file=@\\"$f\\";filename=\\"$f\\""); done < <(
  find . -path '*/new/*' \\( -name benchmark.json -o -name estimates.json -o -name sample.json \\) | sed 's|^\\./||')
curl "\${files[@]}" $AUTH "$RUNS?label=baseline"
# one benchmark's estimates.json alone, named:
curl --data-binary @fib/iterative/20/new/estimates.json $AUTH "$RUNS?label=baseline&endpoint=fib/iterative/20"`,
      },
      parser: { kind: "json", parse: parseCriterionJson },
      markers: {
        json: isCriterionJson,
      },
      // sample.json holds f64 ns totals per sample (serde_json, shortest round-trip); a time per iteration is
      // a total over many iterations divided by their count, so it is not confined to the timer's ns grid.
      latency: { rule: FULL_PRECISION },
    },
  ],
  fileSets: {
    description: "Criterion.rs's files of target/criterion (each named by its path)",
    sets: [{ formats: ["criterion-json"], parse: parseCriterionSet }],
  },
};

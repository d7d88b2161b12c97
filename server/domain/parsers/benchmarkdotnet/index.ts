/**
 * The benchmarkdotnet parsers' public face: `BENCHMARKDOTNET_TOOL`, everything the format registries know of this tool's
 * formats (what the docs say of each, how it is read, its markers, its latency resolution), which tools.ts
 * lists. The files beside it are this tool's own.
 */
import { FULL_PRECISION, type ToolDescriptor } from "../tool-descriptor";
import { isBenchmarkDotNetJson, parseBenchmarkDotNetJson, parseBenchmarkDotNetSet } from "./benchmarkdotnet";

/** BenchmarkDotNet: its full JSON reports, one per class (built from the documentation). */
export const BENCHMARKDOTNET_TOOL: ToolDescriptor = {
  tool: "benchmarkdotnet",
  formats: [
    {
      info: {
        id: "benchmarkdotnet-json",
        extension: ".json",
        title: "BenchmarkDotNet full JSON report",
        command:
          "dotnet run -c Release -- --exporters fulljson   (writes BenchmarkDotNet.Artifacts/results/<Type>-report-full.json)",
        upload: "body or multipart",
        keeps:
          "one benchmark per case, named by FullName (Namespace.Type.Method(Param: value); a job name added when several jobs ran it): every Workload/Result measurement (Nanoseconds / Operations) as a sample, checked against the report's Statistics (or its statistics alone when the report has no measurements), BytesAllocatedPerOperation as B/op, Gen0/Gen1/Gen2 collections per 1000 operations, other diagnosers' metrics with their units and direction, BenchmarkDotNet's version, the processor as the testbed (\"AMD EPYC 7763, 1 CPU, 4 logical and 2 physical cores\"), RuntimeVersion and OsVersion as attributes; several classes' reports of one run as one multipart upload",
        drops:
          "pilot, warmup and overhead measurements, BenchmarkDotNet's outlier lists, quartiles and confidence interval (recomputed from the samples), HardwareIntrinsics, the .NET SDK version; benchmarks that failed (no results) are left out with a note",
        resolution: "full precision (doubles written round-trip by SimpleJson)",
        checkedOn: "documented format",
        recipe: `curl --data-binary @BenchmarkDotNet.Artifacts/results/Acme.Benchmarks.SortBenchmarks-report-full.json $AUTH \\
  "$RUNS?label=baseline"
# every class of one run, one run:
files=(); for f in BenchmarkDotNet.Artifacts/results/*-report-full.json; do files+=(-F "file=@$f"); done
curl "\${files[@]}" $AUTH "$RUNS?label=baseline"`,
      },
      parser: { kind: "json", parse: parseBenchmarkDotNetJson },
      markers: {
        json: isBenchmarkDotNetJson,
      },
      // Nanoseconds are doubles that SimpleJson writes with ToString("r") (round-trip), divided here by the
      // operations of each iteration.
      latency: { rule: FULL_PRECISION },
    },
  ],
  fileSets: {
    description: "BenchmarkDotNet's *-report-full.json files of one run",
    sets: [{ formats: ["benchmarkdotnet-json"], parse: parseBenchmarkDotNetSet }],
  },
};

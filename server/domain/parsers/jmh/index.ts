/**
 * The jmh parsers' public face: `JMH_TOOL`, everything the format registries know of this tool's
 * formats (what the docs say of each, how it is read, its markers, its latency resolution), which tools.ts
 * lists. The files beside it are this tool's own.
 */
import { FULL_PRECISION, type ToolDescriptor } from "../tool-descriptor";
import { isJmhJson, parseJmhJson } from "./jmh";

/** JMH: its -rf json result (built from the documentation). */
export const JMH_TOOL: ToolDescriptor = {
  tool: "jmh",
  formats: [
    {
      info: {
        id: "jmh-json",
        extension: ".json",
        title: "JMH -rf json result",
        command: "java -jar target/benchmarks.jar -rf json -rff jmh-result.json",
        upload: "body",
        keeps:
          "one benchmark per result, named benchmark:param=value,…: every iteration of every fork as a sample (avgt and ss: the time per op; thrpt: the reciprocal of each iteration's throughput, with ops/s = JMH's score), sample mode's histogram of single operations (count, histogram, deviation) with JMH's percentiles, gc.alloc.rate.norm as B/op and the other profiler metrics under their names and units, JMH's version, jdkVersion, vmName and vmVersion as attributes",
        drops:
          "JMH's 99.9% score error and confidence interval, warmup and measurement settings, the JVM path and arguments; the hardware (not in the file: no testbed unless the upload's testbed metadata names one)",
        resolution:
          "full precision (doubles as Java writes them); in sample mode JMH itself keeps each time in whole ns with 10 significant bits (0.1–0.2%)",
        checkedOn: "documented format",
        recipe: `curl --data-binary @jmh-result.json $AUTH "$RUNS?label=baseline&branch=main&commit=9f1c2e7"`,
      },
      parser: { kind: "json", parse: parseJmhJson },
      markers: {
        jsonArray: isJmhJson,
      },
      // JMH writes scores and iteration scores as Java doubles (JSONResultFormat.emit: String.valueOf, the
      // shortest round-trip digits). Sample mode's times are whole ns with 10 significant bits
      // (util/SampleBuffer.java): a step of 0.1–0.2%, which this rule, blind to the mode, does not model.
      latency: { rule: FULL_PRECISION },
    },
  ],
};

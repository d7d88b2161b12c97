/**
 * The jmeter parsers' public face: `JMETER_TOOL`, everything the format registries know of this tool's
 * formats (what the docs say of each, how it is read, its markers, its latency resolution), which tools.ts
 * lists. The files beside it are this tool's own.
 */
import { firstLineOf, headerColumns } from "../markers";
import type { ToolDescriptor } from "../tool-descriptor";
import { parseJmeterCsv } from "./jmeter-csv";
import { parseJmeterXml } from "./jmeter-xml";

/**
 * `<?xml …?>`, comments, then `<testResults`: skipped with indexOf, never one regex (a lazy comment
 * group under `*` backtracks exponentially: 32 empty comments took 64 s).
 */
function isJmeterXmlStart(start: string): boolean {
  let rest = start.slice(0, 64 * 1024);
  if (rest.startsWith("<?xml")) {
    const end = rest.indexOf("?>");
    if (end === -1) return false;
    rest = rest.slice(end + 2).trimStart();
  }
  while (rest.startsWith("<!--")) {
    const end = rest.indexOf("-->", 4);
    if (end === -1) return false;
    rest = rest.slice(end + 3).trimStart();
  }
  return /^<testResults[\s>]/.test(rest);
}

/** JMeter: the JTL results, as CSV or as XML. */
export const JMETER_TOOL: ToolDescriptor = {
  tool: "jmeter",
  formats: [
    {
      info: {
        id: "jmeter-csv",
        extension: ".csv",
        title: "JMeter JTL results (CSV)",
        command: "jmeter -n -t plan.jmx -l results.jtl",
        upload: "body",
        keeps:
          "one endpoint per sample label: requests, failures (success=false), exact percentiles and an HDR histogram of elapsed over all samples, response codes, failure messages, throughput over the whole run's span, start time, peak threads; Transaction Controller samples as endpoints but not in the aggregate",
        drops:
          "sub-samples, bytes, latency and connect times, thread names; rows with SampleCount > 1 and formatted timestamps are refused (set jmeter.save.saveservice.timestamp_format=ms)",
        resolution:
          "whole ms: JMeter's elapsed (percentiles interpolated between samples are no finer); the mean over the samples full precision",
        checkedOn: "documented format",
        recipe: `gzip -c results.jtl | curl --data-binary @- -H "Content-Encoding: gzip" $AUTH "$RUNS?label=baseline"`,
      },
      parser: { kind: "text", parse: parseJmeterCsv },
      markers: {
        // JMeter JTL as CSV: a header naming timeStamp and elapsed (the default columns start with them).
        text: (start) => {
          const columns = headerColumns(firstLineOf(start));
          return columns.includes("timeStamp") && columns.includes("elapsed");
        },
      },
      // `elapsed`/`t` is whole ms (JMeter's SampleResult times are ms; the parser refuses fractions).
      latency: { rule: (stat) => (stat === "mean" ? 0 : 1), interpolatedPercentiles: true },
    },
    {
      info: {
        id: "jmeter-xml",
        extension: ".xml",
        title: "JMeter JTL results (XML)",
        command: "jmeter -n -t plan.jmx -l results.jtl -Jjmeter.save.saveservice.output_format=xml",
        upload: "body",
        keeps:
          "as the CSV JTL, from top-level <httpSample>/<sample> elements (t, ts, s, lb, rc, rm, na) and the first failed assertion's message",
        drops:
          "as the CSV JTL; nested sub-samples (redirects, embedded resources), response data; a file cut off before </testResults> is refused",
        resolution: "as the CSV JTL: whole ms (t); the mean over the samples full precision",
        checkedOn: "documented format",
        recipe: `gzip -c results.jtl | curl --data-binary @- -H "Content-Encoding: gzip" $AUTH "$RUNS?label=baseline"`,
      },
      parser: { kind: "text", parse: parseJmeterXml },
      markers: {
        // JMeter JTL as XML: `<?xml …?>` then `<testResults version="1.2">`.
        text: isJmeterXmlStart,
      },
      latency: { rule: (stat) => (stat === "mean" ? 0 : 1), interpolatedPercentiles: true },
    },
  ],
};

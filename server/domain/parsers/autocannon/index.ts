/**
 * The autocannon parsers' public face: `AUTOCANNON_TOOL`, everything the format registries know of this tool's
 * formats (what the docs say of each, how it is read, its markers, its latency resolution), which tools.ts
 * lists. The files beside it are this tool's own.
 */
import { isRecord } from "../markers";
import type { ToolDescriptor } from "../tool-descriptor";
import { parseAutocannonJson } from "./autocannon";

/** `autocannon --json`: `latency`, `requests` and `throughput` objects of HDR percentiles (`p97_5`). */
function isAutocannonJson(value: Record<string, unknown>): boolean {
  return isRecord(value.latency) && "p97_5" in value.latency && isRecord(value.requests) && isRecord(value.throughput);
}

/**
 * autocannon records latencies in an HDR histogram with lowestDiscernibleValue 1 ms and 5 significant
 * digits (lib/histUtil.js `getHistograms`), so each response time lands in a bucket of whole ms up to
 * 2^18 ms, then 2 ms, 4 ms… per doubling (HdrHistogram's sub-bucket count for 5 digits is 2^18).
 * Percentiles, min and max are bucket values (hdr-histogram-percentiles-obj `addPercentiles`,
 * `histAsObj`). Checked on the autocannon fixtures.
 */
function autocannonHistogramStepMs(valueMs: number): number {
  const wholeMsUpTo = 2 ** 18;
  return valueMs < wholeMsUpTo ? 1 : 2 ** (Math.floor(Math.log2(valueMs)) - 17);
}

/** autocannon: its --json output. */
export const AUTOCANNON_TOOL: ToolDescriptor = {
  tool: "autocannon",
  formats: [
    {
      info: {
        id: "autocannon-json",
        extension: ".json",
        title: "autocannon --json output",
        command: "autocannon -c 10 -d 30 --json http://… > autocannon.json",
        upload: "body",
        keeps:
          "the URL as the endpoint, requests (responses + connection errors), failures (errors, which include timeouts, plus non-2xx), throughput over the duration, min/mean/stdev/max and all 15 percentiles (p0.001 … p99.999), status codes, errors split into timeouts and connection errors, connections and pipelining as load config, start and duration, bytes read per second as a run metric",
        drops: "the per-second request and byte sample statistics, resets; several URLs leave only the aggregate",
        resolution:
          "whole ms for percentiles, min and max (autocannon's HDR histogram; 2 ms and coarser beyond 262 s); the mean rounded up to 0.01 ms",
        checkedOn: "real output",
        recipe: `curl --data-binary @autocannon.json $AUTH "$RUNS?label=baseline"`,
      },
      parser: { kind: "json", parse: parseAutocannonJson },
      markers: {
        json: isAutocannonJson,
      },
      // The mean is rounded UP to 2 decimals (hdr-histogram-percentiles-obj `histAsObj`: Math.ceil(mean × 100) / 100).
      latency: { rule: (stat, valueMs) => (stat === "mean" ? 0.01 : autocannonHistogramStepMs(valueMs)) },
    },
  ],
};

/**
 * The wrk parsers' public face: `WRK_TOOL`, everything the format registries know of this tool's
 * formats (what the docs say of each, how it is read, its markers, its latency resolution), which tools.ts
 * lists. The files beside it are this tool's own.
 */
import type { ToolDescriptor } from "../tool-descriptor";
import { parseWrkText } from "./wrk";

/**
 * wrk 4.1 prints a time with `%.2f` in a unit chosen by magnitude (src/units.c `format_time_us`): µs below
 * 0.85 × 1000 µs, ms below 1 s (the µs table stops at ms), s below 0.85 × 60 s, then minutes (the s table
 * stops at m). Checked on the wrk fixtures (`5.17ms`).
 */
function wrkPrintStepMs(valueMs: number): number {
  if (valueMs < 0.85) return 0.01 / 1_000; // "849.99us"
  if (valueMs < 1_000) return 0.01; // "999.99ms"
  if (valueMs < 51_000) return 10; // "50.99s"
  return 600; // "0.85m": a hundredth of a minute
}

/** wrk counts each latency in whole µs (src/wrk.c `time_us`; percentiles and max come from src/stats.c counts). */
const WRK_SAMPLE_STEP_MS = 0.001;

/** wrk: its --latency text report. */
export const WRK_TOOL: ToolDescriptor = {
  tool: "wrk",
  formats: [
    {
      info: {
        id: "wrk-text",
        extension: ".txt",
        title: "wrk --latency text report",
        command: "wrk -t2 -c10 -d30s --latency http://… > wrk.txt",
        upload: "body",
        keeps:
          "the URL as the endpoint, requests (connect/read/write errors added as attempts), failures (non-2xx/3xx responses and socket errors), duration, requests/s, mean/stdev/max and the 50/75/90/99% distribution (with --latency), threads, connections and the configured duration as load config",
        drops:
          "per-thread Req/Sec statistics, bytes read and transfer rate, the minimum (not printed), a Lua script's own output",
        resolution:
          "two decimals in the unit wrk picks by magnitude: 0.01 µs below 850 µs (percentiles and max are whole µs there), 0.01 ms below 1 s, 10 ms below 51 s, then 0.6 s (a hundredth of a minute)",
        checkedOn: "real output",
        recipe: `curl --data-binary @wrk.txt $AUTH "$RUNS?label=baseline"`,
      },
      parser: { kind: "text", parse: parseWrkText },
      markers: {
        // wrk: `Running 12s test @ http://127.0.0.1:18080/api/listings/42`, after whatever a Lua script printed first.
        text: (start) => /^Running [^\s]+ test @ [^\s]+/m.test(start.slice(0, 64 * 1024)),
      },
      // The mean is a long double printed `%.2f`; percentiles and max are whole µs printed the same way.
      latency: {
        rule: (stat, valueMs) =>
          stat === "mean" ? wrkPrintStepMs(valueMs) : Math.max(wrkPrintStepMs(valueMs), WRK_SAMPLE_STEP_MS),
      },
    },
  ],
};

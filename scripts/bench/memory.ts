import { readFileSync } from "node:fs";

/**
 * A process's memory from /proc/<pid>/status (Linux): VmRSS is the resident set now, VmHWM its
 * high-water mark over the process's life. Sampling VmRSS every 50 ms around one request shows what
 * that request costs, which VmHWM alone cannot (it includes everything before).
 */
export interface MemoryReading {
  rssMb: number;
  hwmMb: number;
}

export function readMemory(pid: number): MemoryReading | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kilobytes = (field: string) =>
      Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? Number.NaN);
    return { rssMb: kilobytes("VmRSS") / 1024, hwmMb: kilobytes("VmHWM") / 1024 };
  } catch {
    return null;
  }
}

export interface RssSamples {
  peakRssMb: number;
  /** [milliseconds since sampling started, VmRSS in MB], to see when during a request memory peaks. */
  timeline: [number, number][];
}

/** Samples VmRSS every `intervalMs` until stopped. */
export function sampleRss(pid: number, intervalMs = 50): { stop(): RssSamples } {
  const started = performance.now();
  let peakRssMb = 0;
  const timeline: [number, number][] = [];
  const take = () => {
    const reading = readMemory(pid);
    if (!reading) return;
    timeline.push([Math.round(performance.now() - started), Math.round(reading.rssMb)]);
    peakRssMb = Math.max(peakRssMb, reading.rssMb);
  };
  take();
  const timer = setInterval(take, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      take();
      return { peakRssMb, timeline };
    },
  };
}

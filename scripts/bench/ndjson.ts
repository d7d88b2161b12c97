import { closeSync, openSync, readFileSync, statSync, writeSync } from "node:fs";
import { createReadStream, createWriteStream } from "node:fs";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import { z } from "zod";

/**
 * A large k6 NDJSON file made from a small real one: the fixture's Metric declarations once at the
 * start, then its Point lines repeated with their timestamps shifted by one fixture span (plus a second)
 * per copy, so the result reads as one long k6 run. Also written gzip-compressed, as CI would send it.
 */
export interface SyntheticNdjson {
  path: string;
  gzipPath: string;
  bytes: number;
  gzipBytes: number;
  copies: number;
  /** Sum of the values of the http_reqs points written: the run's expected aggregate request count. */
  httpRequests: number;
}

const pointLineSchema = z.looseObject({
  type: z.literal("Point"),
  metric: z.string(),
  data: z.looseObject({ time: z.string(), value: z.number() }),
});

export async function synthesizeNdjson(
  fixturePath: string,
  targetBytes: number,
  outputPath: string,
): Promise<SyntheticNdjson> {
  const lines = readFileSync(fixturePath, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "");
  const metricLines: string[] = [];
  const points: z.infer<typeof pointLineSchema>[] = [];
  for (const line of lines) {
    const decoded = JSON.parse(line) as unknown;
    const point = pointLineSchema.safeParse(decoded);
    if (point.success) points.push(point.data);
    else metricLines.push(line);
  }
  const times = points.map((point) => Date.parse(point.data.time));
  const firstMs = Math.min(...times);
  const shiftPerCopyMs = Math.max(...times) - firstMs + 1_000;
  const httpRequestsPerCopy = points
    .filter((point) => point.metric === "http_reqs")
    .reduce((sum, point) => sum + point.data.value, 0);

  const file = openSync(outputPath, "w");
  let bytes = writeSync(file, metricLines.join("\n") + "\n");
  let copies = 0;
  try {
    while (bytes < targetBytes) {
      const shiftMs = copies * shiftPerCopyMs;
      const block = points
        .map((point, index) => {
          const time = new Date((times[index] ?? firstMs) + shiftMs).toISOString();
          return JSON.stringify({ ...point, data: { ...point.data, time } });
        })
        .join("\n");
      bytes += writeSync(file, block + "\n");
      copies++;
    }
  } finally {
    closeSync(file);
  }

  const gzipPath = `${outputPath}.gz`;
  await pipeline(createReadStream(outputPath), createGzip(), createWriteStream(gzipPath));
  return {
    path: outputPath,
    gzipPath,
    bytes,
    gzipBytes: statSync(gzipPath).size,
    copies,
    httpRequests: copies * httpRequestsPerCopy,
  };
}

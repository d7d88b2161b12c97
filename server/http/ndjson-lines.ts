import type { Readable } from "node:stream";
import { InputError } from "../domain/input-error";
import type { Env } from "../env";
import type { TransferLine } from "../schemas/transfer";
import type { LineSink } from "../services/transfer";
import { LineSplitter, chunksOf, decodedBodyStream } from "./upload-body";

/**
 * NDJSON both ways for the project export and import: a request body read as lines under the import's
 * limits (as received and after gzip, each line), and a line producer turned into a response stream that
 * waits for its reader (backpressure), so neither side ever holds a whole file.
 */

/** The limits the configuration sets for an import (BENCHTRACK_MAX_IMPORT_*). */
export function importLimitsOf(env: Env): { maxBytes: number; maxLineChars: number } {
  return { maxBytes: env.BENCHTRACK_MAX_IMPORT_BYTES, maxLineChars: env.BENCHTRACK_MAX_IMPORT_LINE_CHARS };
}

/**
 * Text arriving as byte chunks, as lines in batches (those each chunk completed): UTF-8 checked (a 400
 * naming the line), each line within `maxLineChars` (a 413 naming it).
 */
export async function* linesOfChunks(chunks: AsyncIterable<Buffer | Uint8Array>, maxLineChars: number): AsyncGenerator<string[]> {
  const splitter = new LineSplitter(maxLineChars);
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let lines = 0;
  const decode = (chunk?: Uint8Array) => {
    try {
      return chunk === undefined ? decoder.decode() : decoder.decode(chunk, { stream: true });
    } catch {
      throw new InputError("malformed", `Line ${lines + 1} is not valid UTF-8`, [{ path: `line ${lines + 1}`, message: "invalid UTF-8 byte sequence" }]);
    }
  };
  for await (const chunk of chunks) {
    const batch = splitter.push(decode(chunk));
    lines += batch.length;
    yield batch;
  }
  yield [...splitter.push(decode()), ...splitter.end()];
}

/** A request body (gzip when Content-Encoding says so) as lines, within the import's limits. */
export function readImportLines(request: Request, { maxBytes, maxLineChars }: { maxBytes: number; maxLineChars: number }): AsyncGenerator<string[]> {
  if (!request.body) throw new InputError("malformed", "The import is empty", [{ path: "line 1", message: "no content" }]);
  const stream: Readable = decodedBodyStream(request, { maxBodyBytes: maxBytes, maxDecompressedBytes: maxBytes, maxDocumentBytes: maxBytes });
  return linesOfChunks(chunksOf(stream), maxLineChars);
}

/**
 * A response body written by `write` one line at a time: each line is queued, and `write` waits while
 * more than HIGH_WATER lines are unread. A reader that goes away makes the next line throw (the export's
 * transaction ends); a producer that fails ends the stream with an error (the reader sees a cut file,
 * which has no end line: an import refuses it).
 */
const HIGH_WATER = 64;

export function ndjsonStream(write: (sink: LineSink) => Promise<void>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let wake: (() => void) | null = null;
  let cancelled = false;
  const resume = () => {
    wake?.();
    wake = null;
  };
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const sink = async (line: TransferLine) => {
          if (cancelled) throw new Error("The export's reader went away");
          controller.enqueue(encoder.encode(`${JSON.stringify(line)}\n`));
          while (!cancelled && (controller.desiredSize ?? 1) <= 0) await new Promise<void>((resolve) => (wake = resolve));
        };
        write(sink).then(
          () => {
            if (!cancelled) controller.close();
          },
          (error: unknown) => {
            if (cancelled) return;
            console.error("Export failed part-way:", error);
            controller.error(error);
          },
        );
      },
      pull: resume,
      cancel() {
        cancelled = true;
        resume();
      },
    },
    { highWaterMark: HIGH_WATER },
  );
}

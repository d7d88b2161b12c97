import { createHash } from "node:crypto";
import { Readable, Transform, pipeline } from "node:stream";
import type { TransformCallback } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { StringDecoder } from "node:string_decoder";
import { createGunzip, createGzip, gzipSync } from "node:zlib";
import type { Gzip } from "node:zlib";
import { InputError } from "../domain/input-error";
import { K6NdjsonAccumulator } from "../domain/parsers/k6-ndjson";
import { isNdjsonStart, resolveFormatName } from "../domain/parsers/detect";
import type { ParsedRun } from "../domain/run";

/**
 * Reads an upload body in one streaming pass: enforces the size limits as bytes arrive (so an
 * oversized body or a gzip bomb is refused without being held), undoes `Content-Encoding: gzip`,
 * hashes the content (for idempotency), gzips it for storage, and either hands k6 NDJSON lines to the
 * parser as they come (hundreds of MB never sit in memory) or collects a small document's text.
 */
export interface UploadLimits {
  /** Largest body as received (compressed). */
  maxBodyBytes: number;
  /** Largest NDJSON stream after decompression. */
  maxDecompressedBytes: number;
  /** Largest buffered (non-streamed) document after decompression: it is parsed in memory. */
  maxDocumentBytes: number;
}

export interface ReceivedFile {
  name: string | null;
  contentType: string | null;
  text: string;
  sizeBytes: number;
  gzip: Buffer;
}

export interface StoredRaw {
  name: string | null;
  contentType: string | null;
  sizeBytes: number;
  gzip: Buffer;
}

export type ReceivedUpload =
  | { kind: "files"; files: ReceivedFile[]; sha256: string }
  | { kind: "ndjson"; run: ParsedRun; raw: StoredRaw; sha256: string };

const NDJSON_DECISION_BYTES = 64 * 1024;

export async function readUpload(request: Request, limits: UploadLimits, format: string | null): Promise<ReceivedUpload> {
  if (!request.body) throw new InputError("malformed", "The upload is empty", [{ path: "body", message: "no content" }]);
  // curl --data-binary sends application/x-www-form-urlencoded by default: that says nothing of the file.
  const declaredType = request.headers.get("content-type");
  const contentType = declaredType?.toLowerCase().startsWith("application/x-www-form-urlencoded") ? null : declaredType;
  const decoded = decodedBodyStream(request, limits);
  if (contentType?.toLowerCase().startsWith("multipart/form-data")) {
    return readMultipart(decoded, contentType, limits);
  }
  return readSingleBody(decoded, contentType, limits, format);
}

/** The body after the compressed-size limit, gunzip (when declared) and the decompressed-size limit. */
function decodedBodyStream(request: Request, limits: UploadLimits): Readable {
  const declaredLength = Number(request.headers.get("content-length") ?? Number.NaN);
  if (declaredLength > limits.maxBodyBytes) throw tooLarge("body", limits.maxBodyBytes);
  const encoding = (request.headers.get("content-encoding") ?? "identity").trim().toLowerCase();
  if (!["identity", "gzip", "x-gzip"].includes(encoding)) {
    throw new InputError("unsupported_format", `Content-Encoding "${encoding}" is not supported; use gzip or none`, [
      { path: "header.content-encoding", message: "expected gzip" },
    ]);
  }
  // pipeline() passes any stage's error (limit exceeded, broken gzip) on to the last stage, which the
  // reader iterates; plain pipe() would leave it unhandled. The web stream type differs only nominally.
  const source = Readable.fromWeb(request.body as NodeReadableStream<Uint8Array>);
  const stages: NodeJS.ReadWriteStream[] = [byteLimit(limits.maxBodyBytes, "body")];
  if (encoding !== "identity") stages.push(createGunzip());
  const output = byteLimit(limits.maxDecompressedBytes, "decompressed body");
  pipeline([source, ...stages, output], () => {
    // Errors surface through `output`; nothing else to do here.
  });
  return output;
}

function byteLimit(maxBytes: number, what: string): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      seen += chunk.length;
      if (seen > maxBytes) callback(tooLarge(what, maxBytes));
      else callback(null, chunk);
    },
  });
}

function tooLarge(what: string, maxBytes: number): InputError {
  return new InputError("too_large", `The ${what} exceeds the limit of ${maxBytes.toLocaleString("en-US")} bytes`, [
    { path: what === "body" ? "body" : "body (decompressed)", message: `more than ${maxBytes} bytes` },
  ]);
}

/** Iterates a stream's chunks, turning stream failures into input errors (gzip that is not gzip…). */
async function* chunksOf(stream: Readable): AsyncGenerator<Buffer> {
  try {
    for await (const chunk of stream) yield chunk as Buffer;
  } catch (error) {
    if (error instanceof InputError) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? "";
    if (code.startsWith("Z_") || /incorrect header|unexpected end|invalid/i.test(String(error))) {
      throw new InputError("malformed", "The body is declared gzip but is not valid gzip data", [
        { path: "header.content-encoding", message: String((error as Error).message) },
      ]);
    }
    throw error;
  }
}

class GzipCollector {
  private readonly gzip: Gzip = createGzip({ level: 4 });
  private readonly output: Buffer[] = [];
  private readonly done: Promise<void>;

  constructor() {
    this.gzip.on("data", (chunk: Buffer) => this.output.push(chunk));
    this.done = new Promise((resolve, reject) => {
      this.gzip.on("end", resolve);
      this.gzip.on("error", reject);
    });
  }

  async write(chunk: Buffer): Promise<void> {
    if (!this.gzip.write(chunk)) await new Promise((resolve) => this.gzip.once("drain", resolve));
  }

  async finish(): Promise<Buffer> {
    this.gzip.end();
    await this.done;
    return Buffer.concat(this.output);
  }
}

function acceptsNdjson(format: string | null): boolean {
  if (format === null) return true;
  try {
    return resolveFormatName(format).includes("k6-ndjson");
  } catch {
    return true; // an unknown name is reported by the parser with the list of names
  }
}

async function readSingleBody(
  stream: Readable,
  contentType: string | null,
  limits: UploadLimits,
  format: string | null,
): Promise<ReceivedUpload> {
  const hash = createHash("sha256");
  const gzip = new GzipCollector();
  const decoder = new StringDecoder("utf8");
  let sizeBytes = 0;
  let pending = "";
  let mode: "undecided" | "ndjson" | "document" = "undecided";
  const accumulator = new K6NdjsonAccumulator();
  const documentParts: string[] = [];

  const feedNdjson = (text: string, isEnd: boolean) => {
    pending += text;
    const lines = pending.split("\n");
    pending = isEnd ? "" : (lines.pop() ?? "");
    for (const line of lines) accumulator.addLine(line.endsWith("\r") ? line.slice(0, -1) : line);
  };

  for await (const chunk of chunksOf(stream)) {
    sizeBytes += chunk.length;
    hash.update(chunk);
    await gzip.write(chunk);
    const text = decoder.write(chunk);
    if (mode === "undecided") {
      pending += text;
      const newline = pending.indexOf("\n");
      if (newline === -1 && pending.length < NDJSON_DECISION_BYTES) continue;
      const firstLine = (newline === -1 ? pending : pending.slice(0, newline)).replace(/^\uFEFF/, "");
      mode = isNdjsonStart(firstLine) && acceptsNdjson(format) ? "ndjson" : "document";
      const buffered = pending;
      pending = "";
      if (mode === "ndjson") feedNdjson(buffered, false);
      else documentParts.push(buffered);
    } else if (mode === "ndjson") {
      feedNdjson(text, false);
    } else {
      if (sizeBytes > limits.maxDocumentBytes) throw tooLarge("document", limits.maxDocumentBytes);
      documentParts.push(text);
    }
  }
  const rest = decoder.end();
  const sha256 = hash.digest("hex");
  const raw = { name: null, contentType, sizeBytes, gzip: await gzip.finish() };

  if (mode === "undecided") {
    // The whole body was shorter than the first line's decision window.
    const all = pending + rest;
    pending = "";
    const firstLine = all.split("\n", 1)[0]?.replace(/^\uFEFF/, "") ?? "";
    if (!(isNdjsonStart(firstLine) && acceptsNdjson(format))) {
      return { kind: "files", files: [{ ...raw, text: all }], sha256 };
    }
    feedNdjson(all, true);
    return { kind: "ndjson", run: accumulator.finish(), raw, sha256 };
  }
  if (mode === "ndjson") {
    feedNdjson(rest, true);
    return { kind: "ndjson", run: accumulator.finish(), raw, sha256 };
  }
  documentParts.push(rest);
  return { kind: "files", files: [{ ...raw, text: documentParts.join("") }], sha256 };
}

async function readMultipart(stream: Readable, contentType: string, limits: UploadLimits): Promise<ReceivedUpload> {
  const buffered: Buffer[] = [];
  for await (const chunk of chunksOf(stream)) buffered.push(chunk);
  const body = Buffer.concat(buffered);
  if (body.length > limits.maxDocumentBytes) throw tooLarge("document", limits.maxDocumentBytes);
  let form: FormData;
  try {
    form = await new Response(body, { headers: { "content-type": contentType } }).formData();
  } catch (error) {
    throw new InputError("malformed", "The multipart body could not be read", [
      { path: "body", message: String((error as Error).message) },
    ]);
  }
  const files: ReceivedFile[] = [];
  for (const [field, value] of form.entries()) {
    if (typeof value === "string") continue;
    const bytes = Buffer.from(await value.arrayBuffer());
    files.push({
      name: value.name || field,
      contentType: value.type || null,
      text: bytes.toString("utf8"),
      sizeBytes: bytes.length,
      gzip: gzipSync(bytes, { level: 4 }),
    });
  }
  if (files.length === 0) {
    throw new InputError("malformed", "The multipart body has no file parts", [
      { path: "body", message: 'send files with curl -F "stats=@locust_stats.csv"' },
    ]);
  }
  return { kind: "files", files, sha256: createHash("sha256").update(body).digest("hex") };
}

/**
 * A ReceivedUpload built from files already in memory (the demo seed, tests): each file gzipped for
 * storage, the hash over names and bytes so idempotency sees the file set, not just its content.
 */
export function uploadOfFiles(files: readonly { name: string | null; contentType: string | null; bytes: Buffer }[]): ReceivedUpload {
  const hash = createHash("sha256");
  const received = files.map(({ name, contentType, bytes }) => {
    hash.update(`${name ?? ""}\0${bytes.length}\0`).update(bytes);
    return { name, contentType, text: bytes.toString("utf8"), sizeBytes: bytes.length, gzip: gzipSync(bytes, { level: 4 }) };
  });
  return { kind: "files", files: received, sha256: hash.digest("hex") };
}

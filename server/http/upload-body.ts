import { createHash } from "node:crypto";
import { Readable, Transform, addAbortSignal, pipeline } from "node:stream";
import type { TransformCallback } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { StringDecoder } from "node:string_decoder";
import { createGunzip, createGzip, gzipSync } from "node:zlib";
import type { Gzip } from "node:zlib";
import { InputError } from "../domain/input-error";
import type { Env } from "../env";
import { MAX_NDJSON_FIRST_LINE, isNdjsonStart } from "../domain/parsers/detect";
import { resolveFormatName } from "../domain/parsers/formats";
import type { ReceivedFile, ReceivedUpload, StoredRaw } from "../services/ingest";
import { filesHash } from "../services/ingest";

/**
 * Reads an upload body in one streaming pass: enforces the size limits as bytes arrive (so an
 * oversized body or a gzip bomb is refused without being held), undoes `Content-Encoding: gzip`,
 * hashes the content (for idempotency), gzips it for storage, and either hands k6 NDJSON lines on as
 * they come (the upload use case parses them: hundreds of MB never sit in memory) or collects a small
 * document's text. It parses nothing.
 */
export interface UploadLimits {
  /** Largest body as received (compressed). */
  maxBodyBytes: number;
  /** Largest NDJSON stream after decompression. */
  maxDecompressedBytes: number;
  /** Largest buffered (non-streamed) document after decompression: it is parsed in memory. */
  maxDocumentBytes: number;
  /** Longest NDJSON line (characters): a longer one is refused at once, before it is held whole. */
  maxLineChars?: number;
}

/** The limits the server's configuration sets (BENCHTRACK_MAX_*): a document may be as large as the body. */
export function uploadLimitsOf(env: Env): UploadLimits {
  return {
    maxBodyBytes: env.BENCHTRACK_MAX_BODY_BYTES,
    maxDecompressedBytes: env.BENCHTRACK_MAX_DECOMPRESSED_BYTES,
    maxDocumentBytes: env.BENCHTRACK_MAX_BODY_BYTES,
    maxLineChars: env.BENCHTRACK_MAX_NDJSON_LINE_CHARS,
  };
}

/** k6's NDJSON lines are a few hundred bytes; a megabyte is far beyond any real one. */
export const DEFAULT_MAX_LINE_CHARS = 1024 * 1024;

// Whether a body is k6 NDJSON is decided within its first line, as detect.ts decides it.
const NDJSON_DECISION_BYTES = MAX_NDJSON_FIRST_LINE;

/** Files in one multipart upload: a Locust CSV set is 3 or 4, a ghz run one report per method. */
export const MAX_UPLOAD_FILES = 50;

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
export function decodedBodyStream(request: Request, limits: UploadLimits): Readable {
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
  // The client went away (Next aborts request.signal when the connection closes): stop reading,
  // decompressing and parsing at once; the reader sees an AbortError.
  addAbortSignal(request.signal, output);
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
export async function* chunksOf(stream: Readable): AsyncGenerator<Buffer> {
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

/** Hashes, gzips (for storage) and decodes the body's bytes as they pass. */
class BodyCopy {
  private readonly hash = createHash("sha256");
  private readonly gzip = new GzipCollector();
  private readonly decoder = new StringDecoder("utf8");
  sizeBytes = 0;

  constructor(private readonly contentType: string | null) {}

  async add(chunk: Buffer): Promise<string> {
    this.sizeBytes += chunk.length;
    this.hash.update(chunk);
    await this.gzip.write(chunk);
    return this.decoder.write(chunk);
  }

  /** The last characters held by the decoder, then the stored copy and the hash. */
  async finish(): Promise<{ rest: string; raw: StoredRaw; sha256: string }> {
    const rest = this.decoder.end();
    const raw = { name: null, contentType: this.contentType, sizeBytes: this.sizeBytes, gzip: await this.gzip.finish() };
    return { rest, raw, sha256: this.hash.digest("hex") };
  }
}

/**
 * Splits text arriving in pieces into lines (without "\n" or "\r\n") in linear time: only the
 * unfinished tail is kept, as pieces, and each piece is searched for line breaks once. Each piece's
 * lines come back together, as one array: a reader awaits once a piece, not once a line (a k6 NDJSON
 * upload of 8 million empty lines took 3.7-4.1 s to read at one await a line, 0.8 s a piece at a time;
 * docs/performance.md). A piece's lines are all checked against the length limit before any is read, so
 * a too-long line can be refused before a bad line earlier in the same piece is seen.
 */
export class LineSplitter {
  private tail: string[] = [];
  private tailChars = 0;
  private lineNumber = 0;

  /** `maxLineChars`: a longer line throws a 413 naming it as soon as it is seen, never held whole. */
  constructor(private readonly maxLineChars = Number.POSITIVE_INFINITY) {}

  /** The lines `text` completes, in order (none while a line goes on). */
  push(text: string): string[] {
    const lines: string[] = [];
    let start = 0;
    for (let newline = text.indexOf("\n"); newline !== -1; newline = text.indexOf("\n", start)) {
      if (this.tail.length === 0) {
        // A line wholly within this piece: no tail to join.
        this.check(newline - start);
        this.lineNumber++;
        lines.push(withoutCarriageReturn(text.slice(start, newline)));
      } else {
        this.keep(text.slice(start, newline));
        lines.push(this.takeLine());
      }
      start = newline + 1;
    }
    if (start < text.length) this.keep(text.slice(start));
    return lines;
  }

  private keep(part: string): void {
    this.tailChars += part.length;
    this.check(this.tailChars);
    this.tail.push(part);
  }

  /** The line being read is `chars` long so far: a 413 past the limit. */
  private check(chars: number): void {
    if (chars > this.maxLineChars) {
      throw new InputError("too_large", `Line ${this.lineNumber + 1} is longer than ${this.maxLineChars.toLocaleString("en-US")} characters`, [
        { path: `line ${this.lineNumber + 1}`, message: `more than ${this.maxLineChars} characters` },
      ]);
    }
  }

  /** The last line, when the text did not end with a line break. */
  end(): string[] {
    return this.tail.length > 0 ? [this.takeLine()] : [];
  }

  private takeLine(): string {
    const line = this.tail.length === 1 ? this.tail[0]! : this.tail.join("");
    this.tail = [];
    this.tailChars = 0;
    this.lineNumber++;
    return withoutCarriageReturn(line);
  }
}

/** A line of "\r\n" text without its "\r". */
function withoutCarriageReturn(line: string): string {
  return line.endsWith("\r") ? line.slice(0, -1) : line;
}

/**
 * A single body: its first line decides (within NDJSON_DECISION_BYTES) whether it is k6 NDJSON, whose
 * lines are handed on as the body streams in (the upload use case parses them), or a document, whose
 * text is collected up to the document limit.
 */
async function readSingleBody(
  stream: Readable,
  contentType: string | null,
  limits: UploadLimits,
  format: string | null,
): Promise<ReceivedUpload> {
  const chunks = chunksOf(stream)[Symbol.asyncIterator]();
  const copy = new BodyCopy(contentType);
  let head = "";
  let ended = false;
  while (!head.includes("\n") && head.length < NDJSON_DECISION_BYTES) {
    const next = await chunks.next();
    if (next.done) {
      ended = true;
      break;
    }
    head += await copy.add(next.value);
  }
  const firstLine = (head.split("\n", 1)[0] ?? "").replace(/^\uFEFF/, "");

  if (!(isNdjsonStart(firstLine) && acceptsNdjson(format))) {
    const parts = [head];
    for (let next = ended ? null : await chunks.next(); next && !next.done; next = await chunks.next()) {
      if (copy.sizeBytes + next.value.length > limits.maxDocumentBytes) throw tooLarge("document", limits.maxDocumentBytes);
      parts.push(await copy.add(next.value));
    }
    const { rest, raw, sha256 } = await copy.finish();
    parts.push(rest);
    return { kind: "files", files: [{ ...raw, text: parts.join("") }], sha256 };
  }

  let stored: { raw: StoredRaw; sha256: string } | null = null;
  async function* lines(): AsyncGenerator<string[]> {
    const splitter = new LineSplitter(limits.maxLineChars ?? DEFAULT_MAX_LINE_CHARS);
    yield splitter.push(head);
    for (let next = ended ? null : await chunks.next(); next && !next.done; next = await chunks.next()) {
      yield splitter.push(await copy.add(next.value));
    }
    const { rest, ...finished } = await copy.finish();
    yield [...splitter.push(rest), ...splitter.end()];
    stored = finished;
  }
  return {
    kind: "ndjson",
    lines: lines(),
    stored: () => {
      if (!stored) throw new Error("The NDJSON body was not read to its end");
      return stored;
    },
  };
}

async function readMultipart(stream: Readable, contentType: string, limits: UploadLimits): Promise<ReceivedUpload> {
  // Counted as it arrives: a gzip bomb stops at the document limit, not at the decompression limit.
  const buffered: Buffer[] = [];
  let size = 0;
  for await (const chunk of chunksOf(stream)) {
    size += chunk.length;
    if (size > limits.maxDocumentBytes) throw tooLarge("document", limits.maxDocumentBytes);
    buffered.push(chunk);
  }
  const body = Buffer.concat(buffered);
  let form: FormData;
  try {
    form = await new Response(body, { headers: { "content-type": contentType } }).formData();
  } catch (error) {
    throw new InputError("malformed", "The multipart body could not be read", [
      { path: "body", message: String((error as Error).message) },
    ]);
  }
  const files: ReceivedFile[] = [];
  const contents: { name: string; bytes: Buffer }[] = [];
  for (const [field, value] of form.entries()) {
    if (typeof value === "string") continue;
    if (contents.length === MAX_UPLOAD_FILES) {
      throw new InputError("too_large", `More than ${MAX_UPLOAD_FILES} files in one upload`, [
        { path: `body.files[${MAX_UPLOAD_FILES}]`, message: `at most ${MAX_UPLOAD_FILES} files per upload` },
      ]);
    }
    const bytes = Buffer.from(await value.arrayBuffer());
    const name = value.name || field;
    if (contents.some((earlier) => earlier.name === name)) {
      throw new InputError("malformed", `Two files named "${name}" in one upload`, [
        { path: `body.files[${contents.length}]`, message: `"${name}" was already sent in this upload` },
      ]);
    }
    contents.push({ name, bytes });
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
  return { kind: "files", files, sha256: filesHash(contents) };
}

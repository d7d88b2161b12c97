import { createHash } from "node:crypto";
import { gunzipSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { InputError } from "../domain/input-error";
import { readFixture } from "../domain/parsers/fixtures/read-fixture";
import { LineSplitter, readUpload } from "./upload-body";

const LIMITS = { maxBodyBytes: 50_000_000, maxDecompressedBytes: 500_000_000, maxDocumentBytes: 50_000_000 };

function splitAll(pieces: string[]): string[] {
  const splitter = new LineSplitter();
  return [...pieces.flatMap((piece) => splitter.push(piece)), ...splitter.end()];
}

/** A request whose body arrives in the given pieces, as a slow client would send it. */
function streamedRequest(pieces: Buffer[], headers: Record<string, string> = {}): Request {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const piece of pieces) controller.enqueue(new Uint8Array(piece));
      controller.close();
    },
  });
  return new Request("http://localhost/api/v1/projects/p/runs", { method: "POST", body, headers, duplex: "half" } as RequestInit);
}

function piecesOf(bytes: Buffer, size: number): Buffer[] {
  const pieces: Buffer[] = [];
  for (let start = 0; start < bytes.length; start += size) pieces.push(bytes.subarray(start, start + size));
  return pieces;
}

async function drain(lines: AsyncIterable<readonly string[]>): Promise<string[]> {
  const all: string[] = [];
  for await (const batch of lines) all.push(...batch);
  return all;
}

describe("LineSplitter", () => {
  it("splits lines across pieces, drops \\r of \\r\\n, and keeps a last line without a break", () => {
    expect(splitAll(["a", "b\nc", "d\r", "\n\ne", "f"])).toEqual(["ab", "cd", "", "ef"]);
    expect(splitAll(["x\n"])).toEqual(["x"]);
    expect(splitAll([""])).toEqual([]);
  });

  it("hands over each piece's lines together, as one batch", () => {
    const splitter = new LineSplitter();
    expect(splitter.push("a\nb\n\n\nc")).toEqual(["a", "b", "", ""]);
    expect(splitter.push("d")).toEqual([]);
    expect(splitter.push("\n")).toEqual(["cd"]);
    expect(splitter.end()).toEqual([]);
  });

  it("drops the \\r of \\r\\n and refuses a too-long line within one piece too, naming it", () => {
    expect(splitAll(["a\r\nb\r\n\r\nc\r"])).toEqual(["a", "b", "", "c"]);
    expect(() => new LineSplitter(3).push("abc\nabcd\n")).toThrow(
      expect.objectContaining({ code: "too_large", details: [{ path: "line 2", message: "more than 3 characters" }] }),
    );
  });

  it("joins a line that spans thousands of pieces", () => {
    const pieces = Array.from({ length: 5000 }, () => "0123456789");
    expect(splitAll([...pieces, "\nnext"])).toEqual(["0123456789".repeat(5000), "next"]);
  });
});

describe("readUpload", () => {
  const ndjson = readFixture("k6/baseline/short-ndjson/points.ndjson");

  it("hands gzip-encoded k6 NDJSON on line by line, then its stored copy and hash", async () => {
    const upload = await readUpload(
      streamedRequest(piecesOf(gzipSync(Buffer.from(ndjson)), 997), { "content-encoding": "gzip" }),
      LIMITS,
      null,
    );
    if (upload.kind !== "ndjson") throw new Error(`expected ndjson, got ${upload.kind}`);
    expect(() => upload.stored()).toThrow(/not read to its end/);
    const lines = await drain(upload.lines);
    expect(lines).toEqual(ndjson.replace(/\n$/, "").split("\n"));
    const { raw, sha256 } = upload.stored();
    expect(sha256).toBe(createHash("sha256").update(ndjson).digest("hex"));
    expect(gunzipSync(raw.gzip).toString()).toBe(ndjson);
    expect(raw.sizeBytes).toBe(Buffer.byteLength(ndjson));
  });

  it("collects a JSON document whole, and reads NDJSON as a document when the format says so", async () => {
    const document = readFixture("k6/baseline/round1/summary.json");
    const upload = await readUpload(streamedRequest(piecesOf(Buffer.from(document), 4096)), LIMITS, null);
    expect(upload.kind === "files" && upload.files[0]?.text).toBe(document);
    const declared = await readUpload(streamedRequest([Buffer.from(ndjson)]), LIMITS, "locust-csv");
    expect(declared.kind).toBe("files");
  });

  it("refuses a document over the limit as it streams, naming the limit", async () => {
    const big = Buffer.from(`{"pad":"${"x".repeat(300_000)}"}`);
    const error = await readUpload(streamedRequest(piecesOf(big, 65_536)), { ...LIMITS, maxDocumentBytes: 100_000 }, null).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).code).toBe("too_large");
  });

  it("refuses NDJSON past the decompressed limit while its lines are read", async () => {
    const upload = await readUpload(streamedRequest(piecesOf(Buffer.from(ndjson.repeat(4)), 8192)), { ...LIMITS, maxDecompressedBytes: ndjson.length }, null);
    if (upload.kind !== "ndjson") throw new Error("expected ndjson");
    await expect(drain(upload.lines)).rejects.toMatchObject({ code: "too_large" });
  });
});

describe("limits that hold while streaming", () => {
  it("refuses a line longer than the limit as soon as it is seen, naming it", () => {
    const splitter = new LineSplitter(10);
    expect(splitter.push("short\n0123")).toEqual(["short"]);
    expect(() => splitter.push("456789ab")).toThrow(expect.objectContaining({ code: "too_large", details: [{ path: "line 2", message: "more than 10 characters" }] }));
  });

  it("stops a gzip bomb in a multipart body at the document limit, not at the decompression limit", async () => {
    const form = new FormData();
    form.append("a.json", new Blob([`{"x":"${"a".repeat(2_000_000)}"}`]), "a.json");
    const multipart = new Response(form);
    const body = gzipSync(Buffer.from(await multipart.arrayBuffer()));
    const request = new Request("http://localhost/api/v1/projects/p/runs", {
      method: "POST",
      body,
      headers: { "content-type": multipart.headers.get("content-type")!, "content-encoding": "gzip" },
    });
    await expect(readUpload(request, { ...LIMITS, maxDocumentBytes: 1_000_000 }, null)).rejects.toMatchObject({ code: "too_large" });
  });
});

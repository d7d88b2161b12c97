import { Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import { z } from "zod";
import { otherMethods, projectRoute } from "@/server/http/route";
import { rawDownloadOf } from "@/server/domain/parsers";
import { decimalIntegerSchema } from "@/server/schemas/integers";
import { notFound, ServiceError } from "@/server/services/platform";
import { requireProject } from "@/server/services/projects";
import { findRawUploads, readRawGzip } from "@/server/services/runs";

/** `?file=N`: the file's position, in decimal digits (a 400 naming `file` otherwise). */
const rawFileQuerySchema = z.object({ file: decimalIntegerSchema({ min: 0, max: 10_000 }) });

// GET /api/v1/projects/:project/runs/:id/raw — the original upload (?file=N for one file of a multi-file upload)
export const GET = projectRoute<{ project: string; id: string }, "read">({ access: "read", share: "run" }, async ({ request, db, slug, params, searchParams }) => {
  const run = await findRawUploads(db, (await requireProject(db, slug)).id, params.id);
  if (!run) throw notFound(`Run "${params.id}"`);

  const fileParam = searchParams.get("file");
  if (run.uploads.length > 1 && fileParam === null) {
    return Response.json({
      files: run.uploads.map((upload) => ({
        file: upload.position,
        name: upload.fileName,
        contentType: upload.contentType,
        sizeBytes: upload.sizeBytes,
        available: upload.available,
        url: `${new URL(request.url).pathname}?file=${upload.position}`,
      })),
    });
  }
  const position = fileParam === null ? 0 : rawFileQuerySchema.parse({ file: fileParam }).file;
  const upload = run.uploads.find((candidate) => candidate.position === position);
  if (!upload) throw notFound(`File ${fileParam ?? 0} of run "${params.id}"`);
  const gzip = upload.available ? await readRawGzip(db, run.id, position) : null;
  if (!gzip) throw new ServiceError("not_found", "This raw upload was dropped by the retention setting");

  // The bytes as uploaded, unzipped as they are sent (a 100 MB upload is never held whole), under the
  // format's file name and type. Never the stored gzip as is: Next.js drops a route's Content-Encoding, so a
  // browser would save the compressed bytes under the upload's name.
  const file = rawDownloadOf(run.format, run.id, upload.fileName);
  return new Response(Readable.toWeb(Readable.from([gzip]).pipe(createGunzip())) as ReadableStream, {
    headers: {
      "Content-Type": file.contentType,
      "Content-Disposition": `attachment; filename="${file.name}"`,
    },
  });
});

// Any other method: 405 in the error envelope, with Allow.
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

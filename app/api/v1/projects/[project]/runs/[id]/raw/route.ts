import { gunzipSync } from "node:zlib";
import { otherMethods, projectRoute } from "@/server/http/route";
import { notFound, ServiceError } from "@/server/services/errors";
import { requireProject } from "@/server/services/projects";
import { findRawUploads } from "@/server/services/runs";

// GET /api/v1/projects/:project/runs/:id/raw — the original upload (?file=N for one file of a multi-file upload)
export const GET = projectRoute<{ project: string; id: string }, "read">({ access: "read" }, async ({ request, db, slug, params, searchParams }) => {
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
        available: upload.gzipData !== null,
        url: `${new URL(request.url).pathname}?file=${upload.position}`,
      })),
    });
  }
  const position = fileParam === null ? 0 : Number(fileParam);
  const upload = run.uploads.find((candidate) => candidate.position === position);
  if (!upload) throw notFound(`File ${fileParam ?? 0} of run "${params.id}"`);
  if (!upload.gzipData) throw new ServiceError("not_found", "This raw upload was dropped by the retention setting");

  const name = upload.fileName ?? `${run.id}-${run.format}${guessExtension(upload.contentType)}`;
  const headers = {
    "Content-Type": upload.contentType ?? "application/octet-stream",
    "Content-Disposition": `attachment; filename="${name.replace(/[^\w.-]/g, "_")}"`,
  };
  const acceptsGzip = /\bgzip\b/.test(request.headers.get("accept-encoding") ?? "");
  if (acceptsGzip) {
    return new Response(new Uint8Array(upload.gzipData), { headers: { ...headers, "Content-Encoding": "gzip" } });
  }
  return new Response(new Uint8Array(gunzipSync(upload.gzipData)), { headers });
});

function guessExtension(contentType: string | null): string {
  if (contentType?.includes("json")) return ".json";
  if (contentType?.includes("csv")) return ".csv";
  return "";
}

// Any other method: 405 in the error envelope, with Allow.
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

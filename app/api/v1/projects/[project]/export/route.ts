import { ndjsonStream } from "@/server/http/ndjson-lines";
import { otherMethods, projectRoute } from "@/server/http/route";
import { prepareProjectExport } from "@/server/services/transfer";

// GET /api/v1/projects/:project/export — the project whole as NDJSON (its maintainers): settings, runs with their
// results and raw uploads, annotations, pins, incidents, changes; one snapshot, streamed in batches.
export const GET = projectRoute({ access: "write" }, async ({ db, principal, slug }) => {
  const { slug: exported, write } = await prepareProjectExport(db, principal, slug);
  const stamp = new Date().toISOString().slice(0, 10);
  return new Response(ndjsonStream(write), {
    headers: {
      "Content-Type": "application/x-ndjson",
      "Content-Disposition": `attachment; filename="${exported}-${stamp}.ndjson"`,
      "Cache-Control": "no-store",
    },
  });
});

// Any other method: 405 in the error envelope, with Allow.
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

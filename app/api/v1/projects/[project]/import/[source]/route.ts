import { getEnv } from "@/server/env";
import { clientAddress } from "@/server/http/auth";
import { readLimitedText } from "@/server/http/body-limit";
import { otherMethods, projectRoute } from "@/server/http/route";
import { HISTORY_SOURCES, historySourceSchema, importQuerySchema } from "@/server/schemas/imports";
import { authorizeImport, importHistory } from "@/server/services/ingest";
import { ServiceError } from "@/server/services/platform";

// POST /api/v1/projects/:project/import/:source — import a history kept by github-action-benchmark (its data.js) or Bencher (NDJSON of BMF runs), one run per entry
export const POST = projectRoute<{ project: string; source: string }, "upload">(
  { access: "upload" },
  async ({ request, db, principal, params, slug, readQuery, baseUrl }) => {
    const parsed = historySourceSchema.safeParse(params.source);
    if (!parsed.success) {
      throw new ServiceError("not_found", `No import from "${params.source.slice(0, 60)}": import from ${HISTORY_SOURCES.join(" or ")}`, [
        { path: "path.source", message: `expected ${HISTORY_SOURCES.join(" or ")}` },
      ]);
    }
    // Who may import is settled before a byte of the body is read.
    const project = await authorizeImport(db, principal, slug, clientAddress(request));
    const query = readQuery(importQuerySchema);
    const text = await readLimitedText(request, getEnv().BENCHTRACK_MAX_BODY_BYTES);
    const answer = await importHistory(db, {
      project,
      principal,
      source: parsed.data,
      text,
      branch: query.branch ?? null,
      testbed: query.testbed ?? null,
      label: query.label ?? null,
      baseUrl,
      signal: request.signal,
    });
    return Response.json(answer, { status: answer.created > 0 ? 201 : 200 });
  },
);

// Any other method: 405 in the error envelope, with Allow.
export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");

import type { PrismaClient } from "../../generated/prisma/client";

/**
 * Raw-upload retention: a project's `raw_retention_days` drops the raw bytes of uploads older than that
 * many days (the run, its results and every number stay: only the file is gone, and its download says
 * so). A pinned baseline's uploads are never dropped: the runs a pin names, and every run of a label
 * pinned as a baseline. Runs as the nightly `apply-retention` job (server/services/platform/job-queue.ts), and
 * right after the setting changes.
 */

export interface RetentionReport {
  projectId: string;
  slug: string;
  retentionDays: number;
  /** Raw upload files whose bytes were dropped. */
  dropped: number;
  /** Their compressed size, as stored. */
  freedBytes: number;
}

/** Applies every project's retention (or one project's), now; returns what each freed. */
export async function applyRawRetention(
  db: PrismaClient,
  options: { projectId?: string; now?: Date } = {},
): Promise<RetentionReport[]> {
  const now = options.now ?? new Date();
  const projects = await db.project.findMany({
    where: { rawRetentionDays: { not: null }, ...(options.projectId ? { id: options.projectId } : {}) },
    select: {
      id: true,
      slug: true,
      rawRetentionDays: true,
      baselinePins: { select: { runIds: true, baselineLabel: true } },
    },
  });
  const reports: RetentionReport[] = [];
  for (const project of projects) {
    const days = project.rawRetentionDays;
    if (days === null) continue;
    const cutoff = new Date(now.getTime() - days * 86_400_000);
    const pinnedRunIds = project.baselinePins.flatMap((pin) => pin.runIds);
    const pinnedLabels = project.baselinePins.flatMap((pin) => (pin.baselineLabel ? [pin.baselineLabel] : []));
    // One statement: the sizes are read from the rows it empties (FOR UPDATE: a concurrent run of the job waits).
    const freed = await db.$queryRaw<{ dropped: number; freedBytes: number }[]>`
      WITH doomed AS (
        SELECT u.id, octet_length(u.gzip_data) AS bytes
        FROM raw_uploads u JOIN runs r ON r.id = u.run_id
        WHERE r.project_id = ${project.id}
          AND u.gzip_data IS NOT NULL
          AND u.created_at < ${cutoff}
          AND NOT (r.id = ANY(${pinnedRunIds}::text[]))
          AND (r.label IS NULL OR NOT (r.label = ANY(${pinnedLabels}::text[])))
        FOR UPDATE OF u
      ), emptied AS (
        UPDATE raw_uploads SET gzip_data = NULL FROM doomed WHERE raw_uploads.id = doomed.id RETURNING doomed.bytes
      )
      SELECT count(*)::int AS "dropped", coalesce(sum(bytes), 0)::bigint AS "freedBytes" FROM emptied`;
    const row = freed[0];
    reports.push({
      projectId: project.id,
      slug: project.slug,
      retentionDays: days,
      dropped: row?.dropped ?? 0,
      freedBytes: Number(row?.freedBytes ?? 0),
    });
  }
  return reports;
}

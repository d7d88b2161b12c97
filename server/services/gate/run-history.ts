import type { ReadDb } from "../../db";
import { Prisma } from "../../generated/prisma/client";
import { pinnedRunIds } from "./baselines";
import { gradeRuns, gradeSummary } from "../runs";
import { decodeCursor } from "../../domain/run-cursor";
import { HISTORY_PAGE_SIZE, utcDay } from "../../schemas/history";
import type { HistoryFilters } from "../../schemas/history";
import { ServiceError } from "../platform";
import { requireProject } from "../projects";
import { listRuns } from "../runs";
import type { RunFilters } from "../runs";

/**
 * The run history page (`/projects/{p}/runs`): the two queries it needs, one page of runs under the
 * URL's filters (their shape: server/schemas/history.ts) and the values the filter selects offer.
 */

/** At most this many values per filter select; the loose index scan stops there. */
export const MAX_FILTER_OPTIONS = 500;

/** The URL filters as the run query's terms: `to` is inclusive, so it becomes "before the next day". */
export function toRunFilters(filters: HistoryFilters): RunFilters {
  const from = filters.from === undefined ? null : utcDay(filters.from);
  const to = filters.to === undefined ? null : utcDay(filters.to);
  return {
    ...(filters.branch !== undefined && { branch: filters.branch }),
    ...(filters.label !== undefined && { label: filters.label }),
    ...(filters.tool !== undefined && { tool: filters.tool }),
    ...(from && { startedFrom: from }),
    ...(to && { startedBefore: new Date(to.getTime() + 24 * 60 * 60 * 1000) }),
    ...(Object.keys(filters.attributes).length > 0 && { attributes: filters.attributes }),
  };
}

/**
 * One page of a project's runs under the filters, newest first, with the project facts the table
 * needs (repoUrl for commit links).
 */
export async function listRunHistory(
  db: ReadDb,
  projectSlug: string,
  input: { filters: HistoryFilters; cursor?: string | null; limit?: number },
) {
  const project = await requireProject(db, projectSlug);
  const cursor = input.cursor ? decodeCursor(input.cursor) : null;
  if (input.cursor && !cursor) {
    throw new ServiceError("bad_request", "The cursor is not valid: use nextCursor as given", [{ path: "cursor", message: "use nextCursor as given" }]);
  }
  const page = await listRuns(db, project.id, {
    ...toRunFilters(input.filters),
    cursor,
    limit: input.limit ?? HISTORY_PAGE_SIZE,
  });
  const runIds = page.runs.map((run) => run.id);
  const [grades, pinned] = await Promise.all([gradeRuns(db, project.id, runIds), pinnedRunIds(db, project.id)]);
  return {
    project: { slug: project.slug, name: project.name, repoUrl: project.repoUrl },
    ...page,
    runs: page.runs.map((run) => ({ ...run, grade: gradeSummary(grades.get(run.id)), isPinnedBaseline: pinned.has(run.id) })),
    /** Whether the project has an SLA policy (grades shown) at all. */
    hasSla: grades.size > 0,
    /** When this was read: the "now" of the table's "3 h ago". */
    generatedAt: new Date(),
  };
}

const FILTER_COLUMNS = { branches: "git_branch", labels: "label", tools: "tool" } as const;

/**
 * The distinct branches, labels and tools of a project, for the filter selects, in alphabetical order.
 * Each is a "loose index scan" (a recursive CTE that jumps from one value to the next through the
 * (project_id, <column>, started_at) index), so it costs one index probe per distinct value, not a
 * read of every run: a project with years of history and a handful of branches answers in microseconds.
 */
export async function listRunFilterOptions(db: ReadDb, projectId: string) {
  const [branches, labels, tools] = await Promise.all(
    (["branches", "labels", "tools"] as const).map((name) => distinctRunValues(db, projectId, FILTER_COLUMNS[name])),
  );
  return { branches: branches ?? [], labels: labels ?? [], tools: tools ?? [] };
}

async function distinctRunValues(
  db: ReadDb,
  projectId: string,
  columnName: (typeof FILTER_COLUMNS)[keyof typeof FILTER_COLUMNS],
): Promise<string[]> {
  // The column name comes from the closed FILTER_COLUMNS map above, never from input.
  const column = Prisma.raw(columnName);
  const rows = await db.$queryRaw<{ value: string }[]>`
    WITH RECURSIVE walk(value) AS (
      (SELECT ${column} FROM runs
        WHERE project_id = ${projectId} AND ${column} IS NOT NULL
        ORDER BY ${column} LIMIT 1)
      UNION ALL
      SELECT (SELECT ${column} FROM runs
                WHERE project_id = ${projectId} AND ${column} > walk.value
                ORDER BY ${column} LIMIT 1)
        FROM walk WHERE walk.value IS NOT NULL
    )
    SELECT value FROM walk WHERE value IS NOT NULL LIMIT ${MAX_FILTER_OPTIONS}`;
  // The database's collation decides the walk's order (C in the embedded database, often en_US on a
  // server); sort for people, the same everywhere.
  return rows.map((row) => row.value).sort((a, b) => a.localeCompare(b, "en"));
}

import { z } from "zod";
import { Prisma } from "../generated/prisma/client";
import { pinnedRunIds } from "./baselines";
import { gradeRuns, gradeSummary } from "./sla";
import type { PrismaClient } from "../generated/prisma/client";
import { decodeCursor, listRuns } from "./runs";
import type { RunFilters } from "./runs";

/**
 * The run history page (`/projects/{p}/runs`): its filters live in the URL, Plausible-style —
 * `?branch=main&label=baseline&tool=k6&from=2026-11-01&to=2026-11-30&attr.db=postgres15&cursor=…` —
 * and are applied server-side. This module reads and writes that URL shape (pure) and runs the two
 * queries the page needs: one page of runs, and the values the filter selects offer.
 */

export const HISTORY_PAGE_SIZE = 50;
/** At most this many values per filter select; the loose index scan stops there. */
export const MAX_FILTER_OPTIONS = 500;
const MAX_ATTRIBUTE_FILTERS = 10;

const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** A calendar day as YYYY-MM-DD, read as a UTC day. */
const isoDateSchema = z
  .string()
  .regex(DATE_PATTERN, "a date as YYYY-MM-DD")
  .refine((value) => utcDay(value) !== null, "not a calendar date");

export const historyFiltersSchema = z.object({
  branch: z.string().min(1).max(1024).optional(),
  label: z.string().min(1).max(1024).optional(),
  tool: z.string().min(1).max(200).optional(),
  /** First day included (UTC). */
  from: isoDateSchema.optional(),
  /** Last day included (UTC). */
  to: isoDateSchema.optional(),
  /** attr.<key>=<value>: runs whose attributes have every one of these exact values. */
  attributes: z
    .record(z.string().min(1).max(200), z.string().max(1024))
    .refine((record) => Object.keys(record).length <= MAX_ATTRIBUTE_FILTERS, `at most ${MAX_ATTRIBUTE_FILTERS} attribute filters`)
    .default({}),
});

export type HistoryFilters = z.infer<typeof historyFiltersSchema>;

export const EMPTY_HISTORY_FILTERS: HistoryFilters = { attributes: {} };

export type SearchParamsRecord = Record<string, string | string[] | undefined>;

export interface ParsedHistorySearch {
  filters: HistoryFilters;
  cursor: string | null;
  /** Values that were ignored, said plainly ("from=2026-13-01 ignored: not a calendar date"). */
  notices: string[];
  /**
   * True when the URL came from submitting the filter form (empty fields, an `attr=key=value` input)
   * and reads the same as `canonical`: the page redirects there, so shared URLs stay clean.
   */
  shouldRedirect: boolean;
  /** The canonical query string of these filters and cursor ("" or "?branch=main&…"). */
  canonical: string;
}

function utcDay(value: string): Date | null {
  if (!DATE_PATTERN.test(value)) return null;
  const date = new Date(`${value}T00:00:00.000Z`);
  // Date rolls 2026-02-31 over to March; a real calendar day reads back unchanged.
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value ? date : null;
}

function entriesOf(params: URLSearchParams | SearchParamsRecord): [string, string][] {
  if (params instanceof URLSearchParams) return [...params.entries()];
  return Object.entries(params).flatMap(([key, value]) =>
    value === undefined ? [] : (Array.isArray(value) ? value : [value]).map((item): [string, string] => [key, item]),
  );
}

/**
 * Reads the history filters from a page's search params, leniently: a bad value is dropped with a
 * notice rather than failing the page. The filter form's free-text attribute input arrives as
 * `attr=db=postgres15` and is folded into `attr.db=postgres15`.
 */
export function parseHistorySearchParams(params: URLSearchParams | SearchParamsRecord): ParsedHistorySearch {
  const notices: string[] = [];
  const filters: HistoryFilters = { attributes: {} };
  let cursor: string | null = null;
  let hasFormArtifacts = false;

  const addAttribute = (key: string, value: string, source: string) => {
    const parsed = historyFiltersSchema.shape.attributes.safeParse({ ...filters.attributes, [key.trim()]: value.trim() });
    if (key.trim() === "" || !parsed.success) notices.push(`${source} ignored: ${parsed.success ? "empty key" : (parsed.error.issues[0]?.message ?? "invalid")}`);
    else filters.attributes = parsed.data;
  };

  for (const [key, rawValue] of entriesOf(params)) {
    const value = rawValue.trim();
    if (value === "") {
      hasFormArtifacts = true;
      continue;
    }
    if (key === "branch" || key === "label" || key === "tool" || key === "from" || key === "to") {
      const parsed = historyFiltersSchema.shape[key].safeParse(value);
      if (parsed.success) filters[key] = parsed.data;
      else notices.push(`${key}=${value} ignored: ${parsed.error.issues[0]?.message ?? "invalid"}`);
    } else if (key === "cursor") {
      if (value.length <= 200 && decodeCursor(value)) cursor = value;
      else notices.push("The page cursor was not valid: showing the newest runs.");
    } else if (key === "attr") {
      hasFormArtifacts = true;
      const separator = value.indexOf("=");
      if (separator <= 0) notices.push(`Attribute filter "${value}" ignored: write it as key=value, e.g. db=postgres15.`);
      else addAttribute(value.slice(0, separator), value.slice(separator + 1), `Attribute filter "${value}"`);
    } else if (key.startsWith("attr.")) {
      addAttribute(key.slice("attr.".length), value, `${key}=${value}`);
    }
  }
  const canonical = historySearch(filters, cursor);
  return { filters, cursor, notices, shouldRedirect: hasFormArtifacts && notices.length === 0, canonical };
}

/** The canonical query string for filters (and a cursor), in a fixed order: "" when there is none. */
export function historySearch(filters: HistoryFilters, cursor: string | null = null): string {
  const params = new URLSearchParams();
  for (const key of ["branch", "label", "tool", "from", "to"] as const) {
    const value = filters[key];
    if (value !== undefined) params.set(key, value);
  }
  for (const [key, value] of Object.entries(filters.attributes).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    params.set(`attr.${key}`, value);
  }
  if (cursor !== null) params.set("cursor", cursor);
  const text = params.toString();
  return text === "" ? "" : `?${text}`;
}

export function hasActiveFilters(filters: HistoryFilters): boolean {
  return (
    filters.branch !== undefined ||
    filters.label !== undefined ||
    filters.tool !== undefined ||
    filters.from !== undefined ||
    filters.to !== undefined ||
    Object.keys(filters.attributes).length > 0
  );
}

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

export class InvalidCursorError extends Error {
  constructor() {
    super("The cursor is not valid: use nextCursor as given");
    this.name = "InvalidCursorError";
  }
}

/**
 * One page of a project's runs under the filters, newest first, with the project facts the table
 * needs (repoUrl for commit links). Null when the project does not exist.
 */
export async function listRunHistory(
  db: PrismaClient,
  projectSlug: string,
  input: { filters: HistoryFilters; cursor?: string | null; limit?: number },
) {
  const project = await db.project.findUnique({
    where: { slug: projectSlug },
    select: { id: true, slug: true, name: true, repoUrl: true },
  });
  if (!project) return null;
  const cursor = input.cursor ? decodeCursor(input.cursor) : null;
  if (input.cursor && !cursor) throw new InvalidCursorError();
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
export async function listRunFilterOptions(db: PrismaClient, projectId: string) {
  const [branches, labels, tools] = await Promise.all(
    (["branches", "labels", "tools"] as const).map((name) => distinctRunValues(db, projectId, FILTER_COLUMNS[name])),
  );
  return { branches: branches ?? [], labels: labels ?? [], tools: tools ?? [] };
}

async function distinctRunValues(
  db: PrismaClient,
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

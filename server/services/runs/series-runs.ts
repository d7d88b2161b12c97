import { Prisma } from "../../generated/prisma/client";

/**
 * Which runs make one series, as every reader of a series writes it: the same project, tool, label,
 * branch and testbed, and never an A/B job's base run (it measures a merge-base inside a pull request's
 * job, not the series' history). As a Prisma filter and as SQL, for the statements written by hand.
 */

/** A/B jobs' base runs measure a merge-base inside a pull request's job: never a series' history or a head's round. */
export const NOT_AB_BASE = { OR: [{ abSide: null }, { abSide: { not: "base" } }] };

/** One series of a project, as its runs' columns hold it. */
export interface SeriesOfRuns {
  projectId: string;
  tool: string;
  label: string | null;
  branch: string;
  testbed: string | null;
}

/** `alias.column`, or the bare column when the statement reads runs alone. */
const columnOf = (alias: string, column: string) => Prisma.raw(alias === "" ? column : `${alias}.${column}`);

/** `= $n` or `IS NULL`, never `IS NOT DISTINCT FROM` (which no index serves). */
function equalOrNull(column: Prisma.Sql, value: string | null): Prisma.Sql {
  return value === null ? Prisma.sql`${column} IS NULL` : Prisma.sql`${column} = ${value}`;
}

/** The series' runs (table alias `alias`, "" for none), in the order of the index runs (project_id, tool, label, git_branch, testbed, started_at DESC). */
export function seriesRunsSql(alias: string, series: SeriesOfRuns): Prisma.Sql {
  const column = (name: string) => columnOf(alias, name);
  return Prisma.sql`${column("project_id")} = ${series.projectId} AND ${column("tool")} = ${series.tool}
    AND ${equalOrNull(column("label"), series.label)} AND ${column("git_branch")} = ${series.branch}
    AND ${equalOrNull(column("testbed"), series.testbed)}`;
}

/** NOT_AB_BASE as SQL, on table alias `alias` ("" for none). */
export function notAbBaseSql(alias: string): Prisma.Sql {
  const side = columnOf(alias, "ab_side");
  return Prisma.sql`(${side} IS NULL OR ${side} <> 'base')`;
}

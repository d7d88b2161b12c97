import { z } from "zod";
import { projectInputSchema } from "./projects";
import { decodeCursor } from "../domain/run-cursor";

/**
 * The run history page's filters (`/projects/{p}/runs`) live in the URL, Plausible-style —
 * `?branch=main&label=baseline&tool=k6&from=2026-11-01&to=2026-11-30&attr.db=postgres15&cursor=…`.
 * This module is that URL shape: its schema (the tRPC history procedures validate with it), reading
 * a page's search params leniently, and writing the canonical query string back.
 */

export const HISTORY_PAGE_SIZE = 50;
const MAX_ATTRIBUTE_FILTERS = 10;

export const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

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

export function utcDay(value: string): Date | null {
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

// ---- Dashboard (tRPC) inputs: the resource's fields plus the project it lives in ----

/** One page of the run history under the URL's filters; `cursor` continues after an earlier page. */
export const historyListInputSchema = projectInputSchema.extend({
  filters: historyFiltersSchema,
  cursor: z.string().max(200).nullish(),
  limit: z.number().int().min(1).max(200).default(HISTORY_PAGE_SIZE),
});

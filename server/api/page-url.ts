import type { Metadata } from "next";

/**
 * What Next hands a page (and its generateMetadata): the path parameters and the query, both promised.
 * A page without dynamic segments or without a query leaves them out.
 */
export interface PageProps<Params extends Record<string, string> = Record<string, never>> {
  params?: Promise<Params>;
  searchParams?: Promise<Record<string, string | string[] | undefined>>;
}

/** A page's URL as read by readPageUrl. */
export interface PageUrl<Params extends Record<string, string> = Record<string, never>> {
  params: Params;
  search: URLSearchParams;
}

/** A URL segment as the text it encodes (`encodeURIComponent(name)`); a malformed escape is taken literally. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * A page's URL as every page reads it: each path parameter decoded (Next hands them still encoded),
 * and the query as URLSearchParams (`get` reads a repeated key's first value), which the view-state
 * parsers (history filters, trend and capacity views) take as they are.
 */
export async function readPageUrl<Params extends Record<string, string> = Record<string, never>>(
  props: PageProps<Params>,
): Promise<PageUrl<Params>> {
  const params = (await props.params) ?? ({} as Params);
  const query = (await props.searchParams) ?? {};
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) search.append(key, item);
  }
  const decoded = Object.fromEntries(Object.entries(params).map(([key, value]) => [key, decodeSegment(value)]));
  return { params: decoded as Params, search };
}

/** The generateMetadata of a project's page titled "<what> · <project>" (the project alone without `what`). */
export function projectPageTitle(what?: string) {
  return async (props: PageProps<{ project: string }>): Promise<Metadata> => {
    const { project } = (await readPageUrl(props)).params;
    return { title: what === undefined ? project : `${what} · ${project}` };
  };
}

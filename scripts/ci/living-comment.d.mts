// Types of living-comment.mjs (plain JavaScript, so that CI runs it with Node alone), for its tests.
export declare const COMMENT_LIMIT: number;
export declare const COMMENT_BUDGET: number;
export declare const MAX_HISTORY: number;

export interface LivingCommentResult {
  /** The hidden marker Benchtrack's upload answer names (`comment.marker`). */
  marker: string;
  runId: string;
  /** Benchtrack's Markdown for the run (`comment.markdown`). */
  markdown: string;
}

export interface Forge {
  comments(): AsyncIterable<{ id: number | string; body: string }>;
  create(body: string): Promise<{ id?: number | string; url: string | null }>;
  update(id: number | string, body: string): Promise<{ id?: number | string; url: string | null }>;
}

export declare function hasMarker(body: unknown, marker: string): boolean;
export declare function parseEntries(body: string | null): { runId: string; markdown: string }[];
export declare function entryMarkdown(markdown: string, marker: string): string;
export declare function nextCommentBody(previousBody: string | null, result: LivingCommentResult): string;
export declare function upsertLivingComment(
  forge: Forge,
  result: LivingCommentResult,
): Promise<{ action: "created" | "updated"; id?: number | string; url: string | null }>;

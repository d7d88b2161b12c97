// Types of budget-file.mjs (plain JavaScript, so that CI runs it with Node alone), for its tests.
export declare const DEFAULT_BUDGET_PATH: string;
export declare const MAX_BUDGET_BYTES: number;

/** A budget read and checked: its path from the repository's root, the commit checked out, the file's bytes. */
export interface ReadBudget {
  path: string;
  commit: string | null;
  bytes: Buffer;
}

export declare function findBudgetProblem(document: unknown): { path: string; message: string } | null;
export declare function readBudget(
  env: Record<string, string | undefined>,
  options?: { note?: (text: string) => void; cwd?: string },
): ReadBudget | null;
export declare function budgetHeaders(budget: ReadBudget | null | undefined): Record<string, string>;

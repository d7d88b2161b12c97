import type { Prisma } from "../../generated/prisma/client";

/**
 * What the importer (import-lines.ts) and its writers of run-level lines (import-run-lines.ts) share: the
 * counts an import answers with, and the importer's state as a writer sees it.
 */

type Tx = Prisma.TransactionClient;

export interface ImportCounts {
  lines: number;
  projects: { id: string; slug: string }[];
  runs: { inFile: number; created: number; alreadyPresent: number };
  created: Record<string, number>;
}

/** The importer between lines, as a line's writer sees it: its transaction and counts, the line it is at, the project and endpoints read so far. */
export interface ImportContext {
  readonly tx: Tx;
  readonly lineNumber: number;
  readonly counts: ImportCounts;
  /** The current project's id, or the 400 of a `kind` line before the project line. */
  requireProject(kind: string): string;
  /** This database's id of the file's endpoint `fileId` (null for none), or the 400 of one with no endpoint line before. */
  endpointOf(fileId: number | null, path: string): number | null;
}

/**
 * A Git commit SHA as run metadata takes it (`commit`, `base_commit`) and as history imports read it: one rule
 * for all (a merge-base is found by its prefix). Its own module, importing nothing of the parsers, so a tool's
 * folder can use it without reaching the registries (metadata.ts imports them).
 */
import { z } from "zod";

export const commitShaSchema = z.string().regex(/^[0-9a-fA-F]{7,64}$/, "expected a commit SHA (7 to 64 hex digits)");

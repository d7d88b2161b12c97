import { parseArgs } from "node:util";
import { DEFAULT_TOKEN_SCOPES, TOKEN_SCOPES } from "../server/domain/access/roles";
import { DEFAULT_TOKEN_NAME } from "../server/schemas/tokens";
import type { PrismaClient } from "../server/generated/prisma/client";
import type { Principal } from "../server/services/access";
import { toServiceError } from "../server/services/platform";
import { createProject, createProjectToken, findProject, listProjectTokens, revokeProjectToken } from "../server/services/projects";

/**
 * `npm run token`'s commands over an open database (scripts/token.ts opens it): create a project token
 * with its name, scopes and expiry, list the project's tokens, revoke one. Kept apart from the opening so
 * tests run the same commands on their own database.
 */
export const TOKEN_USAGE = `Usage:
  npm run token -- create --project <slug> [--name <name>] [--scopes ${TOKEN_SCOPES.join(",")}] [--expires-in-days <n> | --expires-at <date>]
      (creates the project if needed; name "${DEFAULT_TOKEN_NAME}" unless given; scopes "${DEFAULT_TOKEN_SCOPES.join(",")}" unless given; never expires unless given)
  npm run token -- list --project <slug>
  npm run token -- revoke --project <slug> <token-id>`;

/** Whoever runs this command holds the database itself: they act as the admin. */
const OPERATOR: Principal = { kind: "admin" };

/** The command line's flag for each field of createTokenSchema, so a refusal names what was typed. */
const FLAG_OF_FIELD: Record<string, string> = { name: "--name", scopes: "--scopes", expiresInDays: "--expires-in-days", expiresAt: "--expires-at" };

/** A refusal's path as the command line's flag: "scopes[1]" is "--scopes[1]". */
function flagOf(path: string): string {
  const field = /^[A-Za-z]+/.exec(path)?.[0] ?? "";
  const flag = FLAG_OF_FIELD[field];
  return flag === undefined ? path : `${flag}${path.slice(field.length)}`;
}

export type TokenCommand =
  | { command: "create"; project: string; input: Record<string, unknown> }
  | { command: "list"; project: string }
  | { command: "revoke"; project: string; tokenId: string };

/** The command a command line asks for, or null when it does not (the caller prints TOKEN_USAGE). */
export function parseTokenCommand(argv: readonly string[]): TokenCommand | null {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        project: { type: "string" },
        name: { type: "string", default: DEFAULT_TOKEN_NAME },
        scopes: { type: "string" },
        "expires-in-days": { type: "string" },
        "expires-at": { type: "string" },
      },
    });
  } catch {
    return null;
  }
  const { values, positionals } = parsed;
  const [command, tokenId, ...rest] = positionals;
  const project = values.project;
  if (!project || rest.length > 0) return null;
  if (command === "list" && tokenId === undefined) return { command, project };
  if (command === "revoke" && tokenId !== undefined) return { command, project, tokenId };
  if (command !== "create" || tokenId !== undefined) return null;
  const days = values["expires-in-days"];
  const input: Record<string, unknown> = {
    name: values.name,
    ...(values.scopes !== undefined && { scopes: values.scopes.split(",").map((scope) => scope.trim()).filter(Boolean) }),
    // A number when it reads as one; as typed otherwise, for the schema to refuse by name.
    ...(days !== undefined && { expiresInDays: /^\s*\d+(\.\d+)?\s*$/.test(days) ? Number(days) : days }),
    ...(values["expires-at"] !== undefined && { expiresAt: values["expires-at"] }),
  };
  return { command, project, input };
}

const iso = (date: Date | null) => (date === null ? null : date.toISOString());

/**
 * Runs one command, printing with `out` (results) and `err` (refusals); the exit code: 0 done, 1 refused
 * (a missing project or token, a name taken, a bad scope or expiry: said as the REST API would say it).
 */
export async function runTokenCommand(db: PrismaClient, command: TokenCommand, out: (line: string) => void, err: (line: string) => void): Promise<number> {
  try {
    if (command.command === "create") {
      if (!(await findProject(db, command.project))) await createProject(db, OPERATOR, { slug: command.project });
      const token = await createProjectToken(db, OPERATOR, command.project, command.input);
      const expires = token.expiresAt === null ? "never expires" : `expires ${token.expiresAt.toISOString()}`;
      out(`Created token ${token.id} ("${token.name}", scopes ${token.scopes.join(",")}, ${expires}) for project "${command.project}". It is shown only now:\n`);
      out(token.token);
    } else if (command.command === "list") {
      const tokens = await listProjectTokens(db, OPERATOR, command.project);
      if (tokens.length === 0) out("No tokens.");
      for (const token of tokens) {
        const state =
          token.status === "revoked" ? `revoked ${iso(token.revokedAt)}` : token.status === "expired" ? `expired ${iso(token.expiresAt)}` : token.expiresAt ? `active until ${iso(token.expiresAt)}` : "active, never expires";
        out(
          [
            token.id,
            `${token.prefix}…`,
            JSON.stringify(token.name),
            `scopes ${token.scopes.join(",")}`,
            `created ${iso(token.createdAt)}${token.createdBy ? ` by ${token.createdBy}` : ""}`,
            token.lastUsedAt ? `last used ${iso(token.lastUsedAt)}` : "never used",
            state,
          ].join("  "),
        );
      }
    } else {
      await revokeProjectToken(db, OPERATOR, command.project, command.tokenId);
      out(`Revoked token ${command.tokenId}.`);
    }
    return 0;
  } catch (error) {
    const problem = toServiceError(error);
    if (problem.code === "internal" || problem.code === "unavailable") throw error;
    err(`${problem.message}.${problem.details.map((detail) => ` ${flagOf(detail.path)}: ${detail.message}.`).join("")}`);
    return 1;
  }
}

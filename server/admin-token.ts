import { randomBytes } from "node:crypto";
import { chmodSync, linkSync, mkdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Env } from "./env";

/**
 * The admin token `npm start` makes for a server that has none, so a first upload works without
 * reading the docs: 32 random bytes from the operating system's CSPRNG, kept in
 * `<BENCHTRACK_DATA_DIR>/admin-token` (mode 0600), beside the embedded database it guards, and handed to
 * the server as BENCHTRACK_ADMIN_TOKEN. An explicit BENCHTRACK_ADMIN_TOKEN always wins.
 *
 * With DATABASE_URL set none is made: the data folder is per machine while the database is shared, so
 * replicas would each make their own token (an admin call would then pass or fail by the replica the
 * load balancer picked) and sign sessions with different secrets. There the variable is the way, the
 * same on every replica; `npm start` says so.
 */
export const ADMIN_TOKEN_FILE = "admin-token";

const TOKEN_PREFIX = "bt_admin_";

/** The token file's path as the data folder is configured: a relative folder stays relative, as it is shown to people. */
export function adminTokenPath(env: Pick<Env, "BENCHTRACK_DATA_DIR">): string {
  return path.join(env.BENCHTRACK_DATA_DIR, ADMIN_TOKEN_FILE);
}

/** The shell line that puts the kept token in BENCHTRACK_ADMIN_TOKEN, run where the server was started. */
export function exportAdminTokenCommand(file: string): string {
  const quoted = /^[\w./-]+$/.test(file) ? file : `'${file.replaceAll("'", `'\\''`)}'`;
  return `export BENCHTRACK_ADMIN_TOKEN=$(cat ${quoted})`;
}

/** What a start does about the admin token. */
export type AdminTokenAtStart =
  /** BENCHTRACK_ADMIN_TOKEN is set: it is used, the file (if any) is not read. */
  | { kind: "environment" }
  /** This start made the token and kept it in `path`: the one time it is shown. */
  | { kind: "created"; token: string; path: string }
  /** An earlier start made it: read from `path`, never shown again. */
  | { kind: "file"; token: string; path: string }
  /** None is made (DATABASE_URL is set): the server has no admin token. */
  | { kind: "none" };

/**
 * The admin token a start hands to the server (`scripts/start.ts`): the environment's, else the one in
 * the data folder, else (embedded database only) a new one written there. Two starts racing on one
 * folder agree: the file is written aside and linked into place, which fails when it already exists.
 */
export function ensureAdminToken(
  env: Pick<Env, "BENCHTRACK_ADMIN_TOKEN" | "BENCHTRACK_DATA_DIR" | "DATABASE_URL">,
): AdminTokenAtStart {
  if (env.BENCHTRACK_ADMIN_TOKEN) return { kind: "environment" };
  if (env.DATABASE_URL) return { kind: "none" };
  const file = adminTokenPath(env);
  const existing = readAdminTokenFile(file);
  if (existing !== null) return { kind: "file", token: existing, path: file };

  mkdirSync(path.dirname(file), { recursive: true });
  const token = `${TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
  const aside = `${file}.${process.pid}.tmp`;
  writeFileSync(aside, `${token}\n`, { mode: 0o600, flag: "wx" });
  try {
    chmodSync(aside, 0o600); // whatever the umask let through
    linkSync(aside, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    const other = readAdminTokenFile(file);
    if (other === null) throw error;
    return { kind: "file", token: other, path: file };
  } finally {
    unlinkSync(aside);
  }
  return { kind: "created", token, path: file };
}

/**
 * What `npm start` says about the admin token once the server is up (null: nothing to say, the
 * environment's token is used): the token itself only on the start that made it, then where it is kept.
 */
export function describeAdminTokenAtStart(token: AdminTokenAtStart, url: string): string | null {
  switch (token.kind) {
    case "environment":
      return null;
    case "none":
      return [
        "No admin token: BENCHTRACK_ADMIN_TOKEN is unset, and with DATABASE_URL set `npm start` makes none (replicas",
        "would each make their own). Until it is set nothing can create a project or use the admin API; set it (16",
        "characters or more, the same on every replica), e.g. BENCHTRACK_ADMIN_TOKEN=$(openssl rand -hex 32).",
      ].join("\n");
    case "created":
      return [
        "Admin token, made on this first start (BENCHTRACK_ADMIN_TOKEN is unset) and shown this once:",
        "",
        `  ${token.token}`,
        "",
        `It is kept in ${token.path} (readable by you only) and used on every start. In another shell here:`,
        `  ${exportAdminTokenCommand(token.path)}`,
        `then send a first run with the command on ${url}. Production: set BENCHTRACK_ADMIN_TOKEN yourself.`,
      ].join("\n");
    case "file":
      return [
        `Admin token: the one kept in ${token.path} (${exportAdminTokenCommand(token.path)});`,
        "set BENCHTRACK_ADMIN_TOKEN to use another.",
        ...(isReadableByOthers(token.path) ? [`Warning: others can read ${token.path}: chmod 600 it.`] : []),
      ].join("\n");
  }
}

/**
 * The token kept in `file`, or null when there is no file. A file that holds no usable token (fewer than
 * 16 characters, or spaces inside) is an error that says how to fix it, never silently replaced.
 */
export function readAdminTokenFile(file: string): string | null {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  const token = text.trim();
  if (token.length < 16 || /\s/.test(token)) {
    throw new Error(
      `${file} does not hold a usable admin token (16 characters or more, no spaces): delete it to have a new one made, or set BENCHTRACK_ADMIN_TOKEN`,
    );
  }
  return token;
}

/** Whether a token file's permissions let anyone but its owner read it (it should be 0600). */
export function isReadableByOthers(file: string): boolean {
  return (statSync(file).mode & 0o077) !== 0;
}

/**
 * Where the running server's admin token comes from, for the pages that tell people how to use it (never
 * the token itself): none; the file `npm start` made (its path, as configured); or the environment of
 * whoever started the server.
 */
export type AdminTokenSource =
  { kind: "none"; canStartMakeOne: boolean; path: string } | { kind: "file"; path: string } | { kind: "environment" };

export function adminTokenSource(
  env: Pick<Env, "BENCHTRACK_ADMIN_TOKEN" | "BENCHTRACK_DATA_DIR" | "DATABASE_URL">,
): AdminTokenSource {
  const file = adminTokenPath(env);
  if (!env.BENCHTRACK_ADMIN_TOKEN) return { kind: "none", canStartMakeOne: !env.DATABASE_URL, path: file };
  let kept: string | null = null;
  try {
    kept = readAdminTokenFile(file);
  } catch {
    // An unreadable or broken file is not where this token came from.
  }
  return kept === env.BENCHTRACK_ADMIN_TOKEN ? { kind: "file", path: file } : { kind: "environment" };
}

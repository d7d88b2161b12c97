import { z } from "zod";

/**
 * Benchtrack's configuration, from environment variables, validated once so bad configuration fails
 * at start-up with a clear message instead of deep inside a request. Every variable is documented in
 * the README (one line) and docs/configuration.md (in full): env.test.ts checks both name each one.
 */
const MEGABYTE = 1024 * 1024;

const optionalString = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === "" ? undefined : value.trim()));

/** Hosts an http:// issuer may name: the provider runs on this machine, so nothing crosses a network. */
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** A comma-separated list, each item trimmed and normalized; empty items dropped. */
function commaList(normalize: (item: string) => string) {
  return optionalString.transform((value) =>
    (value ?? "")
      .split(",")
      .map((item) => normalize(item.trim()))
      .filter((item) => item !== ""),
  );
}

/** The identity provider's variables that mean nothing without its issuer (the name and defaults do no harm). */
const OIDC_NEEDS_ISSUER = new Set([
  "BENCHTRACK_OIDC_CLIENT_ID",
  "BENCHTRACK_OIDC_CLIENT_SECRET",
  "BENCHTRACK_OIDC_ALLOWED_DOMAINS",
  "BENCHTRACK_OIDC_ALLOWED_GROUPS",
  "BENCHTRACK_OIDC_ADMIN_GROUPS",
  "BENCHTRACK_OIDC_ADMIN_EMAILS",
]);

export const envSchema = z.object({
  /** PostgreSQL connection string; when absent, the embedded database (PGlite) is used. */
  DATABASE_URL: optionalString.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://")
      .optional(),
  ),
  /**
   * Read replicas of DATABASE_URL (streaming standbys), comma-separated: pages, tRPC reads and REST GETs
   * are spread over them; writes, transactions and the job queue stay on DATABASE_URL. Ignored (with a
   * message) on the embedded database.
   */
  DATABASE_READ_URL: optionalString.transform((value, context) => {
    const urls = (value ?? "").split(",").map((url) => url.trim()).filter((url) => url !== "");
    urls.forEach((url, index) => {
      if (!/^postgres(ql)?:\/\/[^/]/.test(url)) {
        context.addIssue({ code: "custom", message: `URL ${index + 1} of ${urls.length} must start with postgres:// or postgresql:// and name a host` });
      } else if (!URL.canParse(url)) {
        context.addIssue({ code: "custom", message: `URL ${index + 1} of ${urls.length} is not a valid URL` });
      }
    });
    return urls;
  }),
  /** Folder of the embedded database and other local state. */
  BENCHTRACK_DATA_DIR: optionalString.transform((value) => value ?? "./.data"),
  /** Secret for admin API calls (create projects and tokens, any upload). Unset: no admin access. */
  BENCHTRACK_ADMIN_TOKEN: optionalString.pipe(
    z.string().min(16, "must be at least 16 characters long").optional(),
  ),
  /**
   * When set, Benchtrack is private: every page, tRPC call, image, badge and REST read needs this token,
   * the admin token, a project token, a signed-in session or a share link.
   */
  BENCHTRACK_READ_TOKEN: optionalString,
  /**
   * The role every signed-in person holds on public projects (docs/access.md): viewer (the default),
   * triager, maintainer, or none. Private projects give only their members' roles.
   */
  BENCHTRACK_DEFAULT_ROLE: optionalString
    .pipe(z.enum(["viewer", "triager", "maintainer", "none"]).optional())
    .transform((value) => value ?? "viewer"),
  /**
   * Secret that signs sessions and share links (≥ 32 characters). Unset: derived from the admin and read
   * tokens. Set the same value on every replica.
   */
  BENCHTRACK_SESSION_SECRET: optionalString.pipe(z.string().min(32, "must be at least 32 characters long").optional()),
  /**
   * The identity provider's issuer URL (OpenID Connect discovery), e.g. https://accounts.google.com. Unset: no
   * sign-in with an identity provider. https:// only, except for a provider on this machine (localhost,
   * 127.0.0.1, [::1]), as `npm run oidc:dev` starts.
   */
  BENCHTRACK_OIDC_ISSUER: optionalString.pipe(
    z
      .url()
      .refine((value) => {
        if (!URL.canParse(value)) return true; // z.url() has said so
        const url = new URL(value);
        return url.protocol === "https:" || (url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname));
      }, "must be an https:// URL (http:// only for a provider on this machine: localhost, 127.0.0.1, [::1])")
      .optional(),
  ),
  /** The client id Benchtrack was registered with at the identity provider. Needed with BENCHTRACK_OIDC_ISSUER. */
  BENCHTRACK_OIDC_CLIENT_ID: optionalString,
  /** The client's secret (client_secret_basic). Unset: a public client, PKCE alone. */
  BENCHTRACK_OIDC_CLIENT_SECRET: optionalString,
  /** The provider's name on the sign-in button ("Sign in with …"). */
  BENCHTRACK_OIDC_NAME: optionalString.transform((value) => value ?? "your identity provider"),
  /** The scopes asked for, space-separated; `openid` is always among them. */
  BENCHTRACK_OIDC_SCOPES: optionalString.transform((value) => {
    const scopes = (value ?? "openid email profile").split(/[\s,]+/).filter((scope) => scope !== "");
    return scopes.includes("openid") ? scopes : ["openid", ...scopes];
  }),
  /** The claim that lists a person's groups (a dotted path reaches a nested one, e.g. realm_access.roles). */
  BENCHTRACK_OIDC_GROUPS_CLAIM: optionalString.transform((value) => value ?? "groups"),
  /** Email domains admitted, comma-separated (e.g. example.com); empty: any the provider signs in. */
  BENCHTRACK_OIDC_ALLOWED_DOMAINS: commaList((domain) => domain.toLowerCase().replace(/^@/, "")),
  /** Groups admitted, comma-separated; a person must be in one of them. Empty: any the provider signs in. */
  BENCHTRACK_OIDC_ALLOWED_GROUPS: commaList((group) => group),
  /** Groups whose members are server admins, comma-separated (recomputed at each sign-in: docs/access.md). */
  BENCHTRACK_OIDC_ADMIN_GROUPS: commaList((group) => group),
  /** Verified emails that are server admins, comma-separated (recomputed at each sign-in: docs/access.md). */
  BENCHTRACK_OIDC_ADMIN_EMAILS: commaList((email) => email.toLowerCase()),
  /** Base URL used in links the API returns, e.g. https://bench.example.com. */
  BENCHTRACK_PUBLIC_URL: optionalString.pipe(z.url().optional()),
  /** Largest request body accepted, as received (compressed), in bytes. */
  BENCHTRACK_MAX_BODY_BYTES: z.coerce.number().int().positive().default(50 * MEGABYTE),
  /** Largest body after decompression, in bytes (an NDJSON stream of k6 points can be large). */
  BENCHTRACK_MAX_DECOMPRESSED_BYTES: z.coerce.number().int().positive().default(500 * MEGABYTE),
  /** Longest line of a k6 NDJSON upload, in characters: a longer one is refused (413) as soon as it is seen. */
  BENCHTRACK_MAX_NDJSON_LINE_CHARS: z.coerce.number().int().positive().default(1024 * 1024),
  /** Largest project import (POST …/import), as received and after gzip is undone, in bytes. */
  BENCHTRACK_MAX_IMPORT_BYTES: z.coerce.number().int().positive().default(4096 * MEGABYTE),
  /**
   * Longest line of an import or restore file, in characters (a run with its results, or one raw upload in
   * base64): a longer one is refused (413) as soon as it is seen, never held whole.
   */
  BENCHTRACK_MAX_IMPORT_LINE_CHARS: z.coerce.number().int().positive().default(128 * MEGABYTE),
  /**
   * Threads that parse uploaded files, off the event loop (services/platform/cpu-pool.ts); unset: one per core
   * the machine has (os.availableParallelism()).
   */
  BENCHTRACK_CPU_THREADS: z.coerce.number().int().positive().max(64).optional(),
  /** Longest an upload's files may take to parse, in milliseconds: past it the parse is stopped and the upload refused (413). */
  BENCHTRACK_PARSE_TIMEOUT_MS: z.coerce.number().int().positive().default(20_000),
  /** Heap of each parse thread, in MB: a file that needs more is refused (413); the server's own heap is never at stake. */
  BENCHTRACK_CPU_MEMORY_MB: z.coerce.number().int().min(64).default(2048),
  /** Uploads a minute per token and per client address (0: no limit). */
  BENCHTRACK_RATE_UPLOADS_PER_MINUTE: z.coerce.number().int().nonnegative().default(120),
  /** Failed authentications a minute per client address, after which even a right token waits (0: no limit). */
  BENCHTRACK_RATE_AUTH_FAILURES_PER_MINUTE: z.coerce.number().int().nonnegative().default(20),
  /** REST reads a minute per client address (0: no limit). */
  BENCHTRACK_RATE_READS_PER_MINUTE: z.coerce.number().int().nonnegative().default(1200),
  /**
   * Hosts and networks (comma-separated: names, addresses, CIDRs) webhooks may reach although they are
   * loopback, private or link-local. Unset: none.
   */
  BENCHTRACK_WEBHOOK_ALLOWED_HOSTS: optionalString,
  /**
   * Whether this process runs the background job workers (change-point detection, webhook delivery,
   * retention). Default on; set false on replicas that should only serve (one worker process is enough).
   */
  BENCHTRACK_WORKERS: optionalString
    .pipe(z.enum(["true", "false", "1", "0"]).optional())
    .transform((value) => value === undefined || value === "true" || value === "1"),
  /**
   * The PostgreSQL schema of the job queue (pg-boss's tables). Default "pgboss"; give each install its own
   * when several share one database.
   */
  BENCHTRACK_JOB_SCHEMA: optionalString
    .pipe(z.string().regex(/^[a-z_][a-z0-9_]{0,62}$/, "must be a lower-case PostgreSQL identifier").optional())
    .transform((value) => value ?? "pgboss"),
  /**
   * When the daily webhook digests go out (projects whose webhook is set to "daily"): a cron schedule in
   * UTC, five fields. Default 07:00 UTC every day.
   */
  BENCHTRACK_DIGEST_CRON: optionalString
    .pipe(z.string().regex(/^\S+( \S+){4}$/, 'must be a cron schedule of five fields, e.g. "0 7 * * *"').optional())
    .transform((value) => value ?? "0 7 * * *"),
  /**
   * Longest a stop (SIGTERM, SIGINT) may take, in seconds: requests in flight and running jobs finish
   * within it, then the database closes and the process exits 0; work still running then is cut off
   * (logged, exit 1). Below Kubernetes' 30 s grace period, with room for a 5 s preStop sleep.
   */
  BENCHTRACK_SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().positive().max(3600).default(20),
  /**
   * A bearer token (≥ 16 characters) that may read GET /metrics besides the admin token, for a Prometheus
   * scraper that should hold no admin power. Unset: only the admin token reads it.
   */
  BENCHTRACK_METRICS_TOKEN: optionalString.pipe(z.string().min(16, "must be at least 16 characters long").optional()),
  /** How log lines are written: "json" (one JSON object a line, the default, for a log collector) or "pretty" (one readable line). */
  BENCHTRACK_LOG_FORMAT: optionalString.pipe(z.enum(["json", "pretty"]).optional()).transform((value) => value ?? "json"),
  /** The lowest level logged: trace, debug, info (the default), warn, error, fatal or silent. */
  BENCHTRACK_LOG_LEVEL: optionalString
    .pipe(z.enum(["trace", "debug", "info", "warn", "error", "fatal", "silent"]).optional())
    .transform((value) => value ?? "info"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
}).superRefine((env, context) => {
  // The identity provider's variables make sense only together.
  const oidcOnly = Object.entries(env).filter(([name, value]) => OIDC_NEEDS_ISSUER.has(name) && (Array.isArray(value) ? value.length > 0 : value !== undefined));
  if (env.BENCHTRACK_OIDC_ISSUER !== undefined && env.BENCHTRACK_OIDC_CLIENT_ID === undefined) {
    context.addIssue({ code: "custom", path: ["BENCHTRACK_OIDC_CLIENT_ID"], message: "must be set when BENCHTRACK_OIDC_ISSUER is (the client id Benchtrack was registered with at the identity provider)" });
  }
  if (env.BENCHTRACK_OIDC_ISSUER === undefined && oidcOnly.length > 0) {
    context.addIssue({ code: "custom", path: ["BENCHTRACK_OIDC_ISSUER"], message: `must be set when ${oidcOnly.map(([name]) => name).join(", ")} ${oidcOnly.length === 1 ? "is" : "are"} (the identity provider's issuer URL)` });
  }
});

export type Env = z.infer<typeof envSchema>;

/** Parses an environment; throws one readable error listing every bad variable. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = envSchema.safeParse(source);
  if (!result.success) {
    const problems = result.error.issues
      .map((issue) => `  ${issue.path.join(".")}: ${issue.message}`)
      .join("\n");
    throw new Error(`Invalid environment configuration:\n${problems}`);
  }
  return result.data;
}

let cached: Env | undefined;

/** The process's validated environment, parsed on first use. */
export function getEnv(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/**
 * Forgets the parsed environment: the next getEnv() reads process.env again. For test files, which share
 * one process and each set their own (server/testing/test-file-setup.ts); a server reads it once.
 */
export function rereadEnv(): void {
  cached = undefined;
}

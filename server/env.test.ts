import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { targetFromEnv } from "./db";
import { envSchema, parseEnv } from "./env";

describe("the documentation of the environment", () => {
  it.each(["README.md", "docs/configuration.md"])("%s has a row for every variable the server reads", (page) => {
    const markdown = readFileSync(path.resolve(import.meta.dirname, "..", page), "utf8");
    const missing = Object.keys(envSchema.shape).filter((name) => !markdown.includes(`| \`${name}\` |`));
    expect(missing).toEqual([]);
  });
});

describe("parseEnv", () => {
  it("defaults to the embedded database in ./.data on port 3000", () => {
    const env = parseEnv({});
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.BENCHTRACK_DATA_DIR).toBe("./.data");
    expect(env.PORT).toBe(3000);
    expect(env.BENCHTRACK_ADMIN_TOKEN).toBeUndefined();
    expect(env.BENCHTRACK_MAX_BODY_BYTES).toBe(50 * 1024 * 1024);
  });

  it("treats empty variables as unset", () => {
    expect(parseEnv({ DATABASE_URL: "", BENCHTRACK_ADMIN_TOKEN: "  " }).DATABASE_URL).toBeUndefined();
  });

  it("reads every documented variable", () => {
    const env = parseEnv({
      DATABASE_URL: "postgres://postgres@127.0.0.1:5432/bench",
      BENCHTRACK_DATA_DIR: "/var/lib/benchtrack",
      BENCHTRACK_ADMIN_TOKEN: "a-long-enough-admin-secret",
      BENCHTRACK_READ_TOKEN: "reader",
      BENCHTRACK_PUBLIC_URL: "https://bench.example.com",
      PORT: "8080",
    });
    expect(env).toMatchObject({
      DATABASE_URL: "postgres://postgres@127.0.0.1:5432/bench",
      BENCHTRACK_DATA_DIR: "/var/lib/benchtrack",
      BENCHTRACK_ADMIN_TOKEN: "a-long-enough-admin-secret",
      BENCHTRACK_READ_TOKEN: "reader",
      BENCHTRACK_PUBLIC_URL: "https://bench.example.com",
      PORT: 8080,
    });
  });

  it("names every bad variable in one error", () => {
    expect(() => parseEnv({ DATABASE_URL: "mysql://x", PORT: "99999", BENCHTRACK_ADMIN_TOKEN: "short" })).toThrow(
      /DATABASE_URL: must start with postgres[\s\S]*BENCHTRACK_ADMIN_TOKEN: must be at least 16[\s\S]*PORT/,
    );
  });

  it("reads DATABASE_READ_URL as a comma-separated list of PostgreSQL URLs, and names a bad one by its place", () => {
    expect(parseEnv({}).DATABASE_READ_URL).toEqual([]);
    expect(parseEnv({ DATABASE_READ_URL: " postgres://r1:5432/bench , postgresql://u:p@r2/bench," }).DATABASE_READ_URL).toEqual([
      "postgres://r1:5432/bench",
      "postgresql://u:p@r2/bench",
    ]);
    expect(() => parseEnv({ DATABASE_READ_URL: "postgres://r1/bench,mysql://r2/bench" })).toThrow(
      /DATABASE_READ_URL: URL 2 of 2 must start with postgres:\/\/ or postgresql:\/\//,
    );
    expect(() => parseEnv({ DATABASE_READ_URL: "postgres://r1:99999999/bench" })).toThrow(/DATABASE_READ_URL: URL 1 of 1 is not a valid URL/);
  });
});

describe("DATABASE_READ_URL on the embedded database", () => {
  it("is ignored, with a message naming why", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const target = targetFromEnv(parseEnv({ DATABASE_READ_URL: "postgres://replica/bench", BENCHTRACK_DATA_DIR: "/tmp/bench" }));
    expect(target).toEqual({ kind: "embedded", dataDir: "/tmp/bench" });
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/DATABASE_READ_URL is ignored: read replicas need DATABASE_URL/));
    warn.mockRestore();
    expect(targetFromEnv(parseEnv({ DATABASE_URL: "postgres://primary/bench", DATABASE_READ_URL: "postgres://replica/bench" }))).toEqual({
      kind: "postgres",
      url: "postgres://primary/bench",
      readUrls: ["postgres://replica/bench"],
    });
  });
});

describe("the identity provider's variables", () => {
  it("are off by default, with the button's name, scopes and groups claim defaulted", () => {
    const env = parseEnv({});
    expect(env.BENCHTRACK_OIDC_ISSUER).toBeUndefined();
    expect(env.BENCHTRACK_OIDC_NAME).toBe("your identity provider");
    expect(env.BENCHTRACK_OIDC_SCOPES).toEqual(["openid", "email", "profile"]);
    expect(env.BENCHTRACK_OIDC_GROUPS_CLAIM).toBe("groups");
    expect(env.BENCHTRACK_OIDC_ALLOWED_DOMAINS).toEqual([]);
  });

  it("read lists, lower-case domains and emails, and always ask for openid", () => {
    const env = parseEnv({
      BENCHTRACK_OIDC_ISSUER: "https://idp.example.com/realms/eng",
      BENCHTRACK_OIDC_CLIENT_ID: "benchtrack",
      BENCHTRACK_OIDC_SCOPES: "email profile groups",
      BENCHTRACK_OIDC_ALLOWED_DOMAINS: " Example.COM, @corp.example ,",
      BENCHTRACK_OIDC_ADMIN_EMAILS: "Ada@Example.com",
      BENCHTRACK_OIDC_ALLOWED_GROUPS: "perf-team,SRE",
    });
    expect(env.BENCHTRACK_OIDC_SCOPES).toEqual(["openid", "email", "profile", "groups"]);
    expect(env.BENCHTRACK_OIDC_ALLOWED_DOMAINS).toEqual(["example.com", "corp.example"]);
    expect(env.BENCHTRACK_OIDC_ADMIN_EMAILS).toEqual(["ada@example.com"]);
    expect(env.BENCHTRACK_OIDC_ALLOWED_GROUPS).toEqual(["perf-team", "SRE"]);
  });

  it("are validated together: an issuer needs a client id, and the rest need an issuer", () => {
    expect(() => parseEnv({ BENCHTRACK_OIDC_ISSUER: "https://idp.example.com" })).toThrow(
      /BENCHTRACK_OIDC_CLIENT_ID: must be set when BENCHTRACK_OIDC_ISSUER is/,
    );
    expect(() => parseEnv({ BENCHTRACK_OIDC_CLIENT_ID: "x", BENCHTRACK_OIDC_ADMIN_GROUPS: "admins" })).toThrow(
      /BENCHTRACK_OIDC_ISSUER: must be set when BENCHTRACK_OIDC_CLIENT_ID, BENCHTRACK_OIDC_ADMIN_GROUPS are/,
    );
  });

  it("take an https issuer, or http only on this machine", () => {
    expect(parseEnv({ BENCHTRACK_OIDC_ISSUER: "http://127.0.0.1:3310", BENCHTRACK_OIDC_CLIENT_ID: "x" }).BENCHTRACK_OIDC_ISSUER).toBe("http://127.0.0.1:3310");
    expect(parseEnv({ BENCHTRACK_OIDC_ISSUER: "http://localhost:3310", BENCHTRACK_OIDC_CLIENT_ID: "x" }).BENCHTRACK_OIDC_ISSUER).toBe("http://localhost:3310");
    expect(() => parseEnv({ BENCHTRACK_OIDC_ISSUER: "http://idp.example.com", BENCHTRACK_OIDC_CLIENT_ID: "x" })).toThrow(/BENCHTRACK_OIDC_ISSUER: must be an https:\/\/ URL/);
    expect(() => parseEnv({ BENCHTRACK_OIDC_ISSUER: "not a url", BENCHTRACK_OIDC_CLIENT_ID: "x" })).toThrow(/BENCHTRACK_OIDC_ISSUER/);
  });
});


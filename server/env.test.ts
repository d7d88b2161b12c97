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

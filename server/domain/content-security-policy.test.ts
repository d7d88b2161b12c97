import type { NextConfig } from "next";
import { describe, expect, it } from "vitest";
import { contentSecurityPolicy } from "./content-security-policy";

// next.config.js is plain JavaScript (no types to import): loaded by its URL.
const NEXT_CONFIG = new URL("../../next.config.js", import.meta.url).href;

const directives = (policy: string) =>
  new Map(
    policy
      .split(";")
      .map((part) => part.trim().split(/\s+/))
      .map(([name, ...values]) => [name!, values]),
  );

describe("contentSecurityPolicy", () => {
  it("runs no inline script but the nonce's, and loads nothing from elsewhere (issue 36, item 11)", () => {
    const policy = directives(contentSecurityPolicy({ nonce: "bm9uY2UtMTIzNA==" }));
    expect(policy.get("script-src")).toEqual(["'self'", "'nonce-bm9uY2UtMTIzNA=='"]);
    expect(policy.get("default-src")).toEqual(["'self'"]);
    expect(policy.get("object-src")).toEqual(["'none'"]);
    expect(policy.get("frame-ancestors")).toEqual(["'none'"]);
    expect(policy.get("base-uri")).toEqual(["'self'"]);
    expect(policy.get("form-action")).toEqual(["'self'"]);
    // Chart styles are inline attributes, which a nonce cannot cover.
    expect(policy.get("style-src")).toEqual(["'self'", "'unsafe-inline'"]);
  });

  it("allows eval in development only (React's error overlays)", () => {
    expect(directives(contentSecurityPolicy({ nonce: "n", isDev: true })).get("script-src")).toEqual([
      "'self'",
      "'nonce-n'",
      "'unsafe-eval'",
    ]);
    expect(contentSecurityPolicy({ nonce: "n" })).not.toMatch(/unsafe-eval/);
  });

  it("is what next.config.js sends where the proxy does not run, with no nonce and no inline script", async () => {
    const { default: nextConfig } = (await import(NEXT_CONFIG)) as { default: NextConfig };
    const rules = await nextConfig.headers!();
    const sent = rules.flatMap((rule) => rule.headers).filter((header) => header.key === "Content-Security-Policy");
    expect(sent.map((header) => header.value)).toEqual([contentSecurityPolicy({ nonce: null })]);
    expect(directives(contentSecurityPolicy({ nonce: null })).get("script-src")).toEqual(["'self'"]);
  });
});

import { beforeAll, describe, expect, it } from "vitest";
import { describeCrossSiteRequest } from "./cross-site";

// Issue 36, item 12: the rule the sign-in route and every tRPC mutation apply. The environment is read
// once per test file: the public URL is set before anything reads it.
beforeAll(() => {
  process.env.BENCHTRACK_PUBLIC_URL = "https://bench.example";
});

const verdict = (headers: HeadersInit) => describeCrossSiteRequest(new Headers(headers));

describe("describeCrossSiteRequest", () => {
  it("lets through a request with neither Origin nor Sec-Fetch-Site (curl, CI)", () => {
    expect(verdict({})).toBeNull();
    expect(verdict({ host: "bench.example" })).toBeNull();
  });

  it.each([
    [{ origin: "https://bench.example" }, "the public URL's origin"],
    [
      { origin: "https://bench.example", host: "10.0.0.5:3000" },
      "the public URL's origin behind a proxy that keeps its own Host",
    ],
    [{ origin: "http://localhost:3000", host: "localhost:3000" }, "the host the request was sent to"],
    [
      { origin: "https://internal.example", host: "internal.example", "sec-fetch-site": "same-origin" },
      "either scheme on that host (TLS ended by a proxy)",
    ],
    [
      { origin: "https://bench.internal", host: "127.0.0.1:3000", "x-forwarded-host": "bench.internal" },
      "a reverse proxy's X-Forwarded-Host",
    ],
    [{ origin: "http://localhost", host: "localhost:80" }, "the default port written out"],
    [{ "sec-fetch-site": "same-origin" }, "Sec-Fetch-Site same-origin"],
    [{ "sec-fetch-site": "none" }, "Sec-Fetch-Site none (typed in the address bar)"],
  ])("accepts %j (%s)", (headers, _why) => {
    expect(verdict(headers)).toBeNull();
  });

  it.each([
    [{ origin: "https://evil.example", host: "bench.example" }, "another origin"],
    [{ origin: "https://evil.example" }, "another origin, no Host"],
    [{ origin: "null", host: "bench.example" }, "an opaque origin (sandboxed frame, redirect)"],
    [{ origin: "https://bench.example.evil.example", host: "bench.example" }, "a longer host"],
    [
      { origin: "https://sub.bench.example", host: "bench.example", "sec-fetch-site": "same-site" },
      "a sibling subdomain (same site, other origin)",
    ],
    [{ origin: "http://localhost:3001", host: "localhost:3000" }, "another port"],
    [{ origin: "https://bench.example/path", host: "bench.example" }, "not an origin (a path)"],
    [{ origin: "https://user@bench.example", host: "bench.example" }, "not an origin (userinfo)"],
    [{ origin: "file://", host: "bench.example" }, "another scheme"],
    [{ origin: "", host: "bench.example" }, "an empty Origin"],
    [{ "sec-fetch-site": "cross-site" }, "Sec-Fetch-Site cross-site"],
    [
      { "sec-fetch-site": "cross-site", origin: "https://bench.example" },
      "Sec-Fetch-Site cross-site, whatever the Origin says",
    ],
  ])("refuses %j (%s)", (headers, _why) => {
    expect(verdict(headers)).toMatch(/^This request came from another site/);
  });
});

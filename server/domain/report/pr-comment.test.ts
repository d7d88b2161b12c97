import { describe, expect, it } from "vitest";
import { prCommentIdentity } from "./pr-comment";

describe("prCommentIdentity", () => {
  it("names the series by tool and label, and hides it in an HTML comment", () => {
    expect(prCommentIdentity("listings", { tool: "k6", label: "baseline" })).toEqual({
      series: "k6:baseline",
      marker: "<!-- benchtrack:listings:k6:baseline -->",
    });
    expect(prCommentIdentity("listings", { tool: "locust", label: null }).marker).toBe(
      "<!-- benchtrack:listings:locust: -->",
    );
  });

  it("keeps one suite's testbeds apart, and a run naming none on the two-part series it always had", () => {
    const amd = prCommentIdentity("micro", { tool: "go", label: "nightly", testbed: "linux/amd64 · AMD EPYC" });
    const arm = prCommentIdentity("micro", { tool: "go", label: "nightly", testbed: "linux/arm64 · Neoverse-N1" });
    expect(amd.series).toBe("go:nightly:linux%2Famd64%20%C2%B7%20AMD%20EPYC");
    expect(arm.marker).not.toBe(amd.marker);
    expect(prCommentIdentity("micro", { tool: "go", label: "nightly", testbed: null }).series).toBe("go:nightly");
  });

  it("keeps two series apart, and one series the same on every push", () => {
    const a = prCommentIdentity("p", { tool: "k6", label: "smoke" });
    expect(prCommentIdentity("p", { tool: "k6", label: "smoke" })).toEqual(a);
    expect(prCommentIdentity("p", { tool: "k6", label: "soak" }).marker).not.toBe(a.marker);
    expect(prCommentIdentity("p", { tool: "locust", label: "smoke" }).marker).not.toBe(a.marker);
    // A colon in a label cannot make another series' key.
    expect(prCommentIdentity("p", { tool: "k6:x", label: "y" }).series).not.toBe(
      prCommentIdentity("p", { tool: "k6", label: "x:y" }).series,
    );
  });

  it("cannot be closed early or broken onto two lines by a label", () => {
    const { marker } = prCommentIdentity("p", { tool: "k6", label: "x --> <img src=x onerror=alert(1)>\n<!-- y" });
    expect(marker).toBe("<!-- benchtrack:p:k6:x%20--%3E%20%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E%0A%3C!--%20y -->");
    expect(marker.indexOf("-->")).toBe(marker.length - 3);
    expect(marker.slice("<!--".length, -"-->".length)).not.toMatch(/[<>\n]/);
  });
});

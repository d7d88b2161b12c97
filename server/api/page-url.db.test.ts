import { describe, expect, it } from "vitest";
import { projectPageTitle, readPageUrl } from "./page-url";

describe("a page's URL, as every page reads it", () => {
  it("decodes each path parameter, and takes a malformed escape literally", async () => {
    const { params } = await readPageUrl({ params: Promise.resolve({ project: "shop", name: "GET%20%2Fcart%3Fid", bad: "100%" }) });
    expect(params).toEqual({ project: "shop", name: "GET /cart?id", bad: "100%" });
  });

  it("gives the query as URLSearchParams: a repeated key keeps its values in order, absent ones are left out", async () => {
    const { search } = await readPageUrl({
      params: Promise.resolve({ project: "shop" }),
      searchParams: Promise.resolve({ base: "label:v1", tool: ["k6", "ghz"], head: undefined }),
    });
    expect(search.get("base")).toBe("label:v1");
    expect(search.get("tool")).toBe("k6");
    expect(search.getAll("tool")).toEqual(["k6", "ghz"]);
    expect(search.has("head")).toBe(false);
  });

  it("reads a page without path parameters or query as empty", async () => {
    const url = await readPageUrl({});
    expect(url.params).toEqual({});
    expect([...url.search]).toEqual([]);
  });

  it("titles a project's page after what it shows and the decoded project", async () => {
    const params = Promise.resolve({ project: "my%2Eshop" });
    expect(await projectPageTitle("Runs")({ params })).toEqual({ title: "Runs · my.shop" });
    expect(await projectPageTitle()({ params })).toEqual({ title: "my.shop" });
  });
});

import { describe, expect, it } from "vitest";
import { withShareParam } from "./share";

describe("withShareParam", () => {
  it("appends the token, keeping the other parameters' spelling and the fragment", () => {
    expect(withShareParam("/projects/shop/runs/r1", "Fe26.2*a")).toBe("/projects/shop/runs/r1?share=Fe26.2*a");
    expect(withShareParam("/projects/shop/compare?base=r1,r2&head=r3", "t")).toBe("/projects/shop/compare?base=r1,r2&head=r3&share=t");
    expect(withShareParam("http://bench.test/projects/shop/incidents#regression-x", "t")).toBe("http://bench.test/projects/shop/incidents?share=t#regression-x");
  });

  it("replaces a token already there, and encodes what a token may hold", () => {
    expect(withShareParam("/x?share=old&a=1", "new")).toBe("/x?a=1&share=new");
    expect(withShareParam("/x", "a+b/c=&")).toBe("/x?share=a%2Bb%2Fc%3D%26");
  });
});

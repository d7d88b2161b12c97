import { describe, expect, it } from "vitest";
import { parseTokenCommand } from "./token-command";

describe("npm run token's command line", () => {
  it("reads create with a name, scopes and an expiry; name ci and the service's defaults otherwise", () => {
    expect(parseTokenCommand(["create", "--project", "listings"])).toEqual({ command: "create", project: "listings", input: { name: "ci" } });
    expect(parseTokenCommand(["create", "--project", "listings", "--name", "gha", "--scopes", "upload, read", "--expires-in-days", "90"])).toEqual({
      command: "create",
      project: "listings",
      input: { name: "gha", scopes: ["upload", "read"], expiresInDays: 90 },
    });
    expect(parseTokenCommand(["create", "--project=listings", "--expires-at", "2027-06-30"])).toMatchObject({ input: { name: "ci", expiresAt: "2027-06-30" } });
    // What does not read as a number is passed on as typed, for the schema to refuse by name.
    expect(parseTokenCommand(["create", "--project", "listings", "--expires-in-days", "soon"])).toMatchObject({ input: { expiresInDays: "soon" } });
  });

  it("reads list and revoke; anything else is null (the usage is printed)", () => {
    expect(parseTokenCommand(["list", "--project", "listings"])).toEqual({ command: "list", project: "listings" });
    expect(parseTokenCommand(["revoke", "--project", "listings", "tok1"])).toEqual({ command: "revoke", project: "listings", tokenId: "tok1" });
    for (const argv of [[], ["create"], ["list"], ["revoke", "--project", "listings"], ["delete", "--project", "x"], ["create", "--project", "x", "--frobnicate"], ["create", "--project", "x", "extra"]]) {
      expect(parseTokenCommand(argv), argv.join(" ")).toBeNull();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../server/db";
import { openMigratedDatabase, testDatabaseTargets, uniqueSlug } from "../server/testing/databases";
import { parseTokenCommand, runTokenCommand } from "./token-command";

const DAY_MS = 86_400_000;

describe.each(testDatabaseTargets())("npm run token on $name", ({ target }) => {
  let database: Database;
  beforeAll(async () => {
    database = await openMigratedDatabase(target);
  });
  afterAll(async () => {
    await database.close();
  });

  /** Runs a command line as `npm run token -- …` would: its exit code and what it printed. */
  const run = async (...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const command = parseTokenCommand(argv);
    if (command === null) throw new Error(`not a command: ${argv.join(" ")}`);
    const code = await runTokenCommand(database.prisma, command, (line) => out.push(line), (line) => err.push(line));
    return { code, out: out.join("\n"), err: err.join("\n") };
  };

  it("creates the project and an upload-only token that never expires, then one with scopes and an expiry; lists both", async () => {
    const slug = uniqueSlug("cli");
    const first = await run("create", "--project", slug);
    expect(first).toMatchObject({ code: 0, err: "" });
    expect(first.out).toMatch(new RegExp(`^Created token \\S+ \\("ci", scopes upload, never expires\\) for project "${slug}"\\. It is shown only now:\\n\\nbt_`));

    const before = Date.now();
    const second = await run("create", "--project", slug, "--name", "nightly", "--scopes", "read,upload", "--expires-in-days", "90");
    expect(second.code).toBe(0);
    expect(second.out).toMatch(/\("nightly", scopes upload,read, expires \d{4}-\d\d-\d\dT/);
    const rows = await database.prisma.apiToken.findMany({ where: { project: { slug } }, orderBy: { createdAt: "asc" } });
    expect(rows.map((row) => [row.name, row.scopes, row.createdBy])).toEqual([
      ["ci", ["upload"], "admin token"],
      ["nightly", ["upload", "read"], "admin token"],
    ]);
    expect(rows[0]!.expiresAt).toBeNull();
    expect(rows[1]!.expiresAt!.getTime()).toBeGreaterThanOrEqual(before + 90 * DAY_MS);

    const listed = await run("list", "--project", slug);
    expect(listed.code).toBe(0);
    const lines = listed.out.split("\n");
    expect(lines).toHaveLength(2);
    // Columns two spaces apart: id, prefix, name, scopes, created, last use, state.
    expect(lines[0]!.split("  ").slice(2)).toEqual([
      '"nightly"',
      "scopes upload,read",
      `created ${rows[1]!.createdAt.toISOString()} by admin token`,
      "never used",
      `active until ${rows[1]!.expiresAt!.toISOString()}`,
    ]);
    expect(lines[1]!.split("  ").slice(2)).toEqual(['"ci"', "scopes upload", `created ${rows[0]!.createdAt.toISOString()} by admin token`, "never used", "active, never expires"]);

    expect(await run("revoke", "--project", slug, rows[1]!.id)).toMatchObject({ code: 0, out: `Revoked token ${rows[1]!.id}.` });
    expect((await run("list", "--project", slug)).out.split("\n")[0]).toMatch(/ revoked \S+$/);
  });

  it("refuses a taken name, an unknown scope and a past date naming the flag, and stores nothing", async () => {
    const slug = uniqueSlug("cli-refused");
    expect((await run("create", "--project", slug)).code).toBe(0);
    expect(await run("create", "--project", slug)).toMatchObject({
      code: 1,
      err: expect.stringMatching(new RegExp(`^Project "${slug}" already has a live token named "ci"\\. --name: taken by token \\S+: choose another name, or revoke that token first\\.$`)),
    });
    expect(await run("create", "--project", slug, "--name", "x", "--scopes", "upload,admin")).toMatchObject({ code: 1, err: expect.stringContaining("--scopes[1]: Invalid option") });
    expect(await run("create", "--project", slug, "--name", "x", "--expires-at", "2001-01-01")).toMatchObject({ code: 1, err: expect.stringContaining("--expires-at: must be in the future") });
    expect(await run("create", "--project", slug, "--name", "x", "--expires-in-days", "soon")).toMatchObject({ code: 1, err: expect.stringContaining("--expires-in-days:") });
    expect(await database.prisma.apiToken.count({ where: { project: { slug } } })).toBe(1);
  });
});

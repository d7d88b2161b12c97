import { execFileSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  adminTokenPath,
  adminTokenSource,
  describeAdminTokenAtStart,
  ensureAdminToken,
  exportAdminTokenCommand,
  isReadableByOthers,
  readAdminTokenFile,
} from "./admin-token";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "benchtrack-admin-token-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const embedded = (dataDir: string) => ({ BENCHTRACK_DATA_DIR: dataDir, BENCHTRACK_ADMIN_TOKEN: undefined, DATABASE_URL: undefined });

describe("ensureAdminToken", () => {
  it("makes a token on the first start, in the data folder with mode 0600, and reads the same one after", () => {
    const dataDir = path.join(dir, "data"); // not there yet: a first start on a bare machine
    const first = ensureAdminToken(embedded(dataDir));
    expect(first.kind).toBe("created");
    if (first.kind !== "created") return;
    expect(first.path).toBe(path.join(dataDir, "admin-token"));
    expect(first.token).toMatch(/^bt_admin_[A-Za-z0-9_-]{43}$/); // 32 random bytes, base64url
    expect(statSync(first.path).mode & 0o777).toBe(0o600);
    expect(readFileSync(first.path, "utf8")).toBe(`${first.token}\n`);

    expect(ensureAdminToken(embedded(dataDir))).toEqual({ kind: "file", token: first.token, path: first.path });
  });

  it("makes a different token for each folder (random, not derived)", () => {
    const a = ensureAdminToken(embedded(path.join(dir, "a")));
    const b = ensureAdminToken(embedded(path.join(dir, "b")));
    expect(a.kind === "created" && b.kind === "created" && a.token !== b.token).toBe(true);
  });

  it("keeps the path as configured: a relative folder stays relative, for the messages people read", () => {
    expect(adminTokenPath({ BENCHTRACK_DATA_DIR: "./.data" })).toBe(".data/admin-token");
  });

  it("lets an explicit BENCHTRACK_ADMIN_TOKEN win, writing nothing", () => {
    const env = { ...embedded(dir), BENCHTRACK_ADMIN_TOKEN: "an-explicit-admin-token" };
    expect(ensureAdminToken(env)).toEqual({ kind: "environment" });
    expect(readAdminTokenFile(adminTokenPath(env))).toBeNull();
  });

  it("makes none with DATABASE_URL set: replicas would each make their own", () => {
    const env = { ...embedded(dir), DATABASE_URL: "postgres://postgres@127.0.0.1:5432/x" };
    expect(ensureAdminToken(env)).toEqual({ kind: "none" });
    expect(readAdminTokenFile(adminTokenPath(env))).toBeNull();
  });

  it("refuses a file that holds no usable token rather than replacing it", () => {
    writeFileSync(path.join(dir, "admin-token"), "short\n");
    expect(() => ensureAdminToken(embedded(dir))).toThrow(/does not hold a usable admin token .* delete it/);
    writeFileSync(path.join(dir, "admin-token"), "two words in a long enough file\n");
    expect(() => ensureAdminToken(embedded(dir))).toThrow(/usable admin token/);
  });

  it("notices a token file others can read", () => {
    const made = ensureAdminToken(embedded(dir));
    if (made.kind !== "created") throw new Error("expected a new token");
    expect(isReadableByOthers(made.path)).toBe(false);
    chmodSync(made.path, 0o644);
    expect(isReadableByOthers(made.path)).toBe(true);
  });
});

describe("describeAdminTokenAtStart", () => {
  it("shows the token on the start that made it, and after that only where it is kept", () => {
    const made = ensureAdminToken(embedded(dir));
    if (made.kind !== "created") throw new Error("expected a new token");
    const first = describeAdminTokenAtStart(made, "http://localhost:3000")!;
    expect(first).toContain(`\n\n  ${made.token}\n\n`);
    expect(first).toContain(`export BENCHTRACK_ADMIN_TOKEN=$(cat ${made.path})`);
    expect(first).toContain("Production: set BENCHTRACK_ADMIN_TOKEN yourself");

    const again = ensureAdminToken(embedded(dir));
    const later = describeAdminTokenAtStart(again, "http://localhost:3000")!;
    expect(later).toBe(
      `Admin token: the one kept in ${made.path} (export BENCHTRACK_ADMIN_TOKEN=$(cat ${made.path}));\nset BENCHTRACK_ADMIN_TOKEN to use another.`,
    );
    expect(later).not.toContain(made.token);
    chmodSync(made.path, 0o640);
    expect(describeAdminTokenAtStart(again, "http://localhost:3000")).toContain(`Warning: others can read ${made.path}: chmod 600 it.`);
  });

  it("says nothing of a token from the environment, and with DATABASE_URL that there is none and why", () => {
    expect(describeAdminTokenAtStart({ kind: "environment" }, "http://localhost:3000")).toBeNull();
    expect(describeAdminTokenAtStart({ kind: "none" }, "http://localhost:3000")).toMatch(
      /^No admin token: .*DATABASE_URL set `npm start` makes none \(replicas\nwould each make their own\)/,
    );
  });
});

describe("adminTokenSource", () => {
  it("says where the server's token comes from, never the token", () => {
    const made = ensureAdminToken(embedded(dir));
    if (made.kind !== "created") throw new Error("expected a new token");
    expect(adminTokenSource({ ...embedded(dir), BENCHTRACK_ADMIN_TOKEN: made.token })).toEqual({ kind: "file", path: made.path });
    expect(adminTokenSource({ ...embedded(dir), BENCHTRACK_ADMIN_TOKEN: "another-admin-token-value" })).toEqual({
      kind: "environment",
    });
    expect(adminTokenSource(embedded(dir))).toEqual({ kind: "none", canStartMakeOne: true, path: made.path });
    expect(adminTokenSource({ ...embedded(dir), DATABASE_URL: "postgres://h/db" })).toMatchObject({ kind: "none", canStartMakeOne: false });
  });
});

describe("exportAdminTokenCommand", () => {
  it("quotes a path the shell would split", () => {
    expect(exportAdminTokenCommand(".data/admin-token")).toBe("export BENCHTRACK_ADMIN_TOKEN=$(cat .data/admin-token)");
    expect(exportAdminTokenCommand("/srv/bench data/it's/admin-token")).toBe(
      `export BENCHTRACK_ADMIN_TOKEN=$(cat '/srv/bench data/it'\\''s/admin-token')`,
    );
  });

  it("gives a line bash runs to the token", () => {
    const made = ensureAdminToken(embedded(path.join(dir, "with space")));
    if (made.kind !== "created") throw new Error("expected a new token");
    const out = execFileSync("bash", ["-c", `${exportAdminTokenCommand(made.path)}; printf %s "$BENCHTRACK_ADMIN_TOKEN"`], {
      encoding: "utf8",
    });
    expect(out).toBe(made.token);
  });
});

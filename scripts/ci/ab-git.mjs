// The git side of benchtrack-ab.mjs: the head checkout (where the command started), the base commit to
// compare it with, and the base's temporary worktree, removed at the end. Plain Node 18+, no dependencies.
// See docs/ci.md, "A/B jobs".
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gitLine } from "./ci-settings.mjs";

/** git's own error, as a one-line message. */
function gitError(error) {
  const text = String(error?.stderr ?? error?.message ?? error).trim();
  return text.split("\n").filter(Boolean).slice(-3).join(" ") || "git failed";
}

/** `git <args>` in `cwd`, its output trimmed (unless `trim: false`); throws git's message. */
function git(args, cwd, { trim = true } = {}) {
  try {
    const out = execFileSync("git", args, {
      cwd,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      timeout: 300_000,
    });
    return trim ? out.trim() : out;
  } catch (error) {
    throw new Error(`git ${args.join(" ")}: ${gitError(error)}`);
  }
}

/**
 * The head checkout: the repository's top folder, the folder the command started from inside it
 * (`prefix`, "" at the top), HEAD's commit, and the uncommitted changes (`git status`: modified, staged
 * and untracked files that are not ignored), which the head side measures. Null outside a git checkout.
 */
export function readHeadCheckout(cwd) {
  const root = gitLine(["rev-parse", "--show-toplevel"], cwd);
  if (!root) return null;
  const prefix = gitLine(["rev-parse", "--show-prefix"], cwd) ?? "";
  const commit = gitLine(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], root) || null;
  return { root, prefix, commit, changes: uncommittedChanges(root) };
}

/** The paths `git status` lists (modified, staged, untracked and not ignored), as in its porcelain -z format. */
function uncommittedChanges(root) {
  const entries = git(["status", "--porcelain", "-z", "--untracked-files=normal"], root, { trim: false }).split("\0");
  const paths = [];
  for (let index = 0; index < entries.length; index += 1) {
    const entry = entries[index];
    if (entry.length < 4) continue;
    paths.push(entry.slice(3));
    // A rename or copy is followed by its source path.
    if (entry[0] === "R" || entry[0] === "C") index += 1;
  }
  return paths;
}

/** A revision's commit SHA in the checkout, or null when the checkout does not have it. */
export const resolveCommit = (rev, root) =>
  rev.startsWith("-") ? null : gitLine(["rev-parse", "--verify", "--quiet", `${rev}^{commit}`], root) || null;

/** Whether the checkout is shallow (actions/checkout's default fetch-depth: 1; GitLab's GIT_DEPTH). */
export const isShallow = (root) => gitLine(["rev-parse", "--is-shallow-repository"], root) === "true";

/**
 * Checks the base commit out in a temporary worktree (detached, in the system's temporary folder) and
 * returns its folder and `remove()`, which removes it and its temporary folder whatever happened
 * (synchronous, so that a signal handler can call it; a second call does nothing).
 */
export function addBaseWorktree(root, sha) {
  const parent = mkdtempSync(path.join(os.tmpdir(), "benchtrack-ab-"));
  const dir = path.join(parent, "base");
  try {
    git(["worktree", "add", "--detach", "--quiet", dir, sha], root);
  } catch (error) {
    rmSync(parent, { recursive: true, force: true });
    throw error;
  }
  let removed = false;
  return {
    dir,
    remove() {
      if (removed) return;
      removed = true;
      try {
        git(["worktree", "remove", "--force", "--force", dir], root);
      } catch {
        // A folder git will not remove (a file still open on some systems): delete it, then forget it.
      }
      rmSync(parent, { recursive: true, force: true });
      gitLine(["worktree", "prune"], root);
    },
  };
}

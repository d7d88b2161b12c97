import { expect, test, type Locator, type Page } from "@playwright/test";
import { E2E_ADMIN_TOKEN } from "../../playwright.config";
import { WRITES_SCREENSHOTS, lookAt, uniqueSlug, uploadRun } from "../helpers";

// Settings → Members and roles (issue 40, items 2 and 3) in Chromium, with the admin session: grant a role
// by email and by group, change one, remove one, make the project private, and read each in the audit
// log; then the server's people from the header's link.

const admin = { Authorization: `Bearer ${E2E_ADMIN_TOKEN}` };

function nightly(p95: number) {
  return JSON.stringify({
    schema: "benchtrack/v1",
    label: "nightly",
    startedAt: new Date(Date.UTC(2026, 9, 3, 9)).toISOString(),
    endpoints: [{ name: "GetListing", requests: 1000, failures: 0, latency: { unit: "ms", p50: p95 / 2, p95 } }],
  });
}

/** With E2E_SCREENSHOTS=1: the page (or one part of it) in light and dark. */
async function lookBothWays(page: Page, name: string, part?: Locator) {
  if (!WRITES_SCREENSHOTS) return;
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    await lookAt(part ?? page, `${name}-${colorScheme}`);
  }
  await page.emulateMedia({ colorScheme: "light" });
}

test("an admin grants roles in Settings, makes the project private, and reads it all in the audit log", async ({ page, request }) => {
  const slug = uniqueSlug("members-ui");
  // An address and a group of this test alone: other specs may sign people in on the same server.
  const email = `ada.${slug}@example.com`;
  const group = `perf-leads-${slug}`;
  await uploadRun(request, slug, nightly(20), { branch: "main" });

  await page.goto(`/projects/${slug}/settings`);
  // Before signing in: what the visibility means and what each role may do, no grants.
  const panel = page.getByTestId("members-panel");
  await expect(panel.getByTestId("visibility-meaning")).toContainText("Anyone can read this project.");
  await expect(panel.getByTestId("role-legend")).toContainText("may read this project, post markers and annotations, triage incidents");
  await expect(panel).toContainText("Only the maintainers of");
  await page.getByTestId("admin-token-input").fill(E2E_ADMIN_TOKEN);
  await page.getByRole("button", { name: "Unlock settings" }).click();
  await expect(panel.getByTestId("visibility-select")).toBeVisible();
  await expect(panel).toContainText("No grants yet");

  // Grant by email (as typed: stored lower-cased), then by group.
  await panel.getByTestId("grant-subject").fill(email.toUpperCase());
  await panel.getByTestId("grant-role").selectOption("triager");
  await panel.getByTestId("grant-submit").click();
  const rows = panel.getByTestId("member-row");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(email);
  await expect(rows.first()).toContainText("matches nobody who has signed in yet");
  await expect(panel.getByTestId("grant-subject")).toHaveValue("");
  await panel.getByTestId("grant-kind").selectOption("group");
  await panel.getByTestId("grant-subject").fill(group);
  await panel.getByTestId("grant-role").selectOption("maintainer");
  await panel.getByTestId("grant-submit").click();
  await expect(rows).toHaveCount(2);

  // A bad email, which the form's own check stops in the browser, is refused by the server too, naming the field.
  const bad = await request.post(`/api/v1/projects/${slug}/members`, { headers: admin, data: { kind: "email", subject: "nobody", role: "viewer" } });
  expect(bad.status()).toBe(400);
  expect(((await bad.json()) as { error: { details: { path: string }[] } }).error.details[0]!.path).toBe("subject");

  // Change Ada's role, then make the project private.
  await rows.filter({ hasText: email }).getByTestId("member-role").selectOption("maintainer");
  await expect(rows.filter({ hasText: email }).getByTestId("member-role")).toHaveValue("maintainer");
  await panel.getByTestId("visibility-select").selectOption("private");
  await expect(panel.getByTestId("visibility-meaning")).toContainText("Only its members, the read token, its tokens with the read scope and share links can read it.");
  const project = (await (await request.get(`/api/v1/projects/${slug}`, { headers: admin })).json()) as { visibility: string | null; effectiveVisibility: string };
  expect(project).toMatchObject({ visibility: "private", effectiveVisibility: "private" });

  // The audit log names each change, by the admin's session.
  const audit = page.getByTestId("audit-list");
  await expect(audit).toContainText("admin session granted a role");
  await expect(audit).toContainText(`subject: ${email}role: none → triager`);
  await expect(audit).toContainText(`subject: ${email}role: triager → maintainer`);
  await expect(audit).toContainText("admin session changed visibility");
  await expect(audit).toContainText("visibility: server default → private");
  await lookBothWays(page, "members-settings", page.locator("#members"));

  // Remove the group's grant; back to the server's default visibility.
  await rows.filter({ hasText: group }).getByRole("button", { name: `Remove ${group}` }).click();
  await expect(rows).toHaveCount(1);
  await panel.getByTestId("visibility-select").selectOption("default");
  await expect(panel.getByTestId("visibility-meaning")).toContainText("(the server's default)");
  const { entries } = (await (await request.get(`/api/v1/projects/${slug}/audit`, { headers: admin })).json()) as { entries: { action: string; actor: string }[] };
  expect(entries.map((entry) => entry.action)).toEqual(["project.visibility", "member.remove", "project.visibility", "member.update", "member.grant", "member.grant"]);
  expect(new Set(entries.map((entry) => entry.actor))).toEqual(new Set(["admin session"]));

  // The server's people, from the header (admins only).
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "People" }).click();
  await expect(page).toHaveURL(/\/admin\/people$/);
  await expect(page.getByRole("heading", { name: "People" })).toBeVisible();
  const { users } = (await (await request.get("/api/v1/users", { headers: admin })).json()) as { users: unknown[] };
  if (users.length === 0) await expect(page.getByText("Nobody has signed in yet")).toBeVisible();
  else await expect(page.getByTestId("person-row")).toHaveCount(users.length);
  await lookBothWays(page, "members-people");
});

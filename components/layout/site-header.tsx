import { ScopedLink } from "@/components/share/share-context";
import { SESSION_FORM_ACTION, pagePaths } from "@/server/domain/urls";
import type { SessionUser } from "@/components/providers/session-provider";
import { ThemeToggle } from "./theme-toggle";

const NAVIGATION = [
  { href: pagePaths.home(), label: "Projects" },
  { href: pagePaths.apiDocs(), label: "API" },
];

/**
 * The site's header; `signedIn`: the browser holds a session, so it offers to sign out; `user`: the person
 * signed in with the identity provider, named (their email on hover) beside it.
 * `shared`: the page was opened through a share link, which opens neither the project list nor the API
 * docs: the name stays, as text, and the navigation goes. `admin`: the browser is signed in as the server's
 * admin, so the navigation leads to the server's people (/admin/people) too.
 */
export function SiteHeader({
  signedIn = false,
  user = null,
  shared = false,
  admin = false,
}: {
  signedIn?: boolean;
  user?: SessionUser | null;
  shared?: boolean;
  admin?: boolean;
}) {
  return (
    <header className="border-border bg-surface border-b">
      <div className="mx-auto flex max-w-6xl items-center gap-6 px-4 py-3">
        <ScopedLink href={pagePaths.home()} className="flex items-center gap-2 font-semibold tracking-tight">
          <span aria-hidden="true" className="bg-accent inline-block h-5 w-5 rounded" />
          Benchtrack
        </ScopedLink>
        {shared ? (
          <span className="flex-1" />
        ) : (
          <nav aria-label="Main" className="flex flex-1 items-center gap-4 text-sm">
            {NAVIGATION.map((item) => (
              <ScopedLink key={item.href} href={item.href} className="text-text-muted hover:text-text">
                {item.label}
              </ScopedLink>
            ))}
            {admin && (
              <ScopedLink href={pagePaths.people()} className="text-text-muted hover:text-text">
                People
              </ScopedLink>
            )}
          </nav>
        )}
        {user && (
          <span className="max-w-48 truncate text-sm" title={user.email ?? undefined} data-testid="signed-in-person">
            {user.name ?? user.email ?? "Signed in"}
            {user.serverAdmin && (
              <span className="bg-accent/15 text-accent ml-1.5 rounded px-1.5 py-0.5 text-xs">admin</span>
            )}
          </span>
        )}
        {signedIn && (
          <form method="post" action={SESSION_FORM_ACTION}>
            <input type="hidden" name="action" value="sign-out" />
            <button type="submit" className="text-text-muted hover:text-text text-sm">
              Sign out
            </button>
          </form>
        )}
        <ThemeToggle />
      </div>
    </header>
  );
}

import { ScopedLink } from "@/components/share/share-context";
import { SESSION_FORM_ACTION, pagePaths } from "@/server/domain/urls";
import { ThemeToggle } from "./theme-toggle";

const NAVIGATION = [
  { href: pagePaths.home(), label: "Projects" },
  { href: pagePaths.apiDocs(), label: "API" },
];

/**
 * The site's header; `signedIn`: the browser holds a session (a private server), so it offers to sign out.
 * `shared`: the page was opened through a share link, which opens neither the project list nor the API
 * docs: the name stays, as text, and the navigation goes. `admin`: the browser is signed in as the server's
 * admin, so the navigation leads to the server's people (/admin/people) too.
 */
export function SiteHeader({ signedIn = false, shared = false, admin = false }: { signedIn?: boolean; shared?: boolean; admin?: boolean }) {
  return (
    <header className="border-b border-border bg-surface">
      <div className="mx-auto flex max-w-6xl items-center gap-6 px-4 py-3">
        <ScopedLink href={pagePaths.home()} className="flex items-center gap-2 font-semibold tracking-tight">
          <span aria-hidden="true" className="inline-block h-5 w-5 rounded bg-accent" />
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
        {signedIn && (
          <form method="post" action={SESSION_FORM_ACTION}>
            <input type="hidden" name="action" value="sign-out" />
            <button type="submit" className="text-sm text-text-muted hover:text-text">
              Sign out
            </button>
          </form>
        )}
        <ThemeToggle />
      </div>
    </header>
  );
}

import Link from "next/link";
import { pagePaths } from "@/server/domain/urls";
import { ThemeToggle } from "./theme-toggle";

const NAVIGATION = [
  { href: pagePaths.home(), label: "Projects" },
  { href: pagePaths.apiDocs(), label: "API" },
];

export function SiteHeader() {
  return (
    <header className="border-b border-border bg-surface">
      <div className="mx-auto flex max-w-6xl items-center gap-6 px-4 py-3">
        <Link href={pagePaths.home()} className="flex items-center gap-2 font-semibold tracking-tight">
          <span aria-hidden="true" className="inline-block h-5 w-5 rounded bg-accent" />
          Benchtrack
        </Link>
        <nav aria-label="Main" className="flex flex-1 items-center gap-4 text-sm">
          {NAVIGATION.map((item) => (
            <Link key={item.href} href={item.href} className="text-text-muted hover:text-text">
              {item.label}
            </Link>
          ))}
        </nav>
        <ThemeToggle />
      </div>
    </header>
  );
}

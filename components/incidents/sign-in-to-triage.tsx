"use client";

import Link from "next/link";
import { usePathname, useSearchParams } from "next/navigation";
import { cn } from "@/components/lib/cn";
import { pagePaths } from "@/server/domain/urls";

/**
 * For a reader without an admin session: the sign-in page, which comes back to this page (path and
 * query) once the admin token is entered (`next`, checked by safeNextPath in server/services/access/auth.ts).
 */
export function SignInToTriage({ className }: { className?: string }) {
  const pathname = usePathname();
  const query = useSearchParams().toString();
  return (
    <Link
      href={pagePaths.signIn(query ? `${pathname}?${query}` : pathname)}
      className={cn("text-accent text-sm font-medium hover:underline", className)}
      title="Triaging incidents needs the admin token (BENCHTRACK_ADMIN_TOKEN); you come back here after signing in."
      data-testid="sign-in-to-triage"
    >
      Sign in to triage
    </Link>
  );
}

import { formatRelativeTime } from "@/server/domain/format";

/**
 * Run start times in tables: short and absolute in UTC ("2026-11-22 10:00"), so the server's and the
 * browser's renders agree whatever their time zones; the long form with "how long ago" goes in a title.
 */
export function formatRunTime(date: Date | string | number): string {
  const iso = new Date(date).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
}

/** "2026-11-22 10:00:00 UTC · 3 d ago" */
export function describeRunTime(date: Date | string | number, now: Date | number): string {
  const iso = new Date(date).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC · ${formatRelativeTime(date, now)}`;
}

/** The short commit (7 characters) and, when the project has an http(s) repository URL, its link. */
export function commitLink(repoUrl: string | null, sha: string): { text: string; href: string | null } {
  const text = sha.slice(0, 7);
  if (!repoUrl) return { text, href: null };
  try {
    const url = new URL(repoUrl);
    if (url.protocol !== "https:" && url.protocol !== "http:") return { text, href: null };
    return { text, href: `${url.href.replace(/\/+$/, "")}/commit/${encodeURIComponent(sha)}` };
  } catch {
    return { text, href: null };
  }
}

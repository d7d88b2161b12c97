"use client";

import { createContext, useContext } from "react";
import type { ReactNode } from "react";

/**
 * What this browser's session cookie grants, as the root layout read it on the server (the cookie is
 * httpOnly: scripts never see it). Admin controls show only for an admin session; the server checks
 * the session on every call either way.
 */
export type SessionRole = "read" | "admin" | "user" | null;

const SessionContext = createContext<{ role: SessionRole; isPrivate: boolean }>({ role: null, isPrivate: false });

/** `isPrivate`: the server is private (BENCHTRACK_READ_TOKEN set), so a page's plain URL asks a reader to sign in. */
export function SessionProvider({ role, isPrivate, children }: { role: SessionRole; isPrivate: boolean; children: ReactNode }) {
  return <SessionContext.Provider value={{ role, isPrivate }}>{children}</SessionContext.Provider>;
}

/** True when this browser signed in with the admin token (on /sign-in or the Settings page). */
export function useIsAdmin(): boolean {
  return useContext(SessionContext).role === "admin";
}

/** True on a private server: links handed to others need a share link to open (components/share). */
export function useIsPrivate(): boolean {
  return useContext(SessionContext).isPrivate;
}

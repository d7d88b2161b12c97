"use client";

import { createContext, useContext } from "react";
import type { ReactNode } from "react";

/**
 * What this browser's session cookie grants, as the root layout read it on the server (the cookie is
 * httpOnly: scripts never see it). Admin controls show only for an admin session; the server checks
 * the session on every call either way.
 */
export type SessionRole = "read" | "admin" | null;

const SessionContext = createContext<SessionRole>(null);

export function SessionProvider({ role, children }: { role: SessionRole; children: ReactNode }) {
  return <SessionContext.Provider value={role}>{children}</SessionContext.Provider>;
}

/** True when this browser signed in with the admin token (on /sign-in or the Settings page). */
export function useIsAdmin(): boolean {
  return useContext(SessionContext) === "admin";
}

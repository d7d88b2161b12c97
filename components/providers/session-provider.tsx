"use client";

import { createContext, useContext } from "react";
import type { ReactNode } from "react";

/**
 * What this browser's session cookie grants, as the root layout read it on the server (the cookie is
 * httpOnly: scripts never see it). Admin controls show only for an admin session or a server admin
 * signed in with the identity provider; the server checks the session on every call either way.
 */
export type SessionRole = "read" | "admin" | "user" | null;

/** The person signed in with the identity provider, as session.get describes them. */
export interface SessionUser {
  name: string | null;
  email: string | null;
  serverAdmin: boolean;
}

const SessionContext = createContext<{ role: SessionRole; user: SessionUser | null; isPrivate: boolean }>({ role: null, user: null, isPrivate: false });

/** `isPrivate`: the server is private (BENCHTRACK_READ_TOKEN set), so a page's plain URL asks a reader to sign in. */
export function SessionProvider({ role, user = null, isPrivate, children }: { role: SessionRole; user?: SessionUser | null; isPrivate: boolean; children: ReactNode }) {
  return <SessionContext.Provider value={{ role, user, isPrivate }}>{children}</SessionContext.Provider>;
}

/** True when this browser signed in with the admin token, or as a person who is a server admin. */
export function useIsAdmin(): boolean {
  const { role, user } = useContext(SessionContext);
  return role === "admin" || (role === "user" && user?.serverAdmin === true);
}

/** True on a private server: links handed to others need a share link to open (components/share). */
export function useIsPrivate(): boolean {
  return useContext(SessionContext).isPrivate;
}

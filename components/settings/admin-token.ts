"use client";

import { useCallback, useSyncExternalStore } from "react";

/**
 * The admin token, entered once per browser session on the Settings page: kept in sessionStorage
 * (gone when the tab closes), never in a cookie or localStorage, and sent only to this server, as the
 * `Authorization: Bearer …` header of the dashboard's tRPC calls (components/providers/trpc-provider.tsx).
 */
const KEY = "benchtrack-admin-token";
const EVENT = "benchtrack-admin-token-change";

function subscribe(onChange: () => void) {
  window.addEventListener(EVENT, onChange);
  return () => window.removeEventListener(EVENT, onChange);
}

/** The token entered in this tab, or null (and always null on the server). */
export function readAdminToken(): string | null {
  return typeof window === "undefined" ? null : window.sessionStorage.getItem(KEY);
}

export function useAdminToken(): [string | null, (token: string | null) => void] {
  const token = useSyncExternalStore(subscribe, readAdminToken, () => null);
  const setToken = useCallback((next: string | null) => {
    if (next) window.sessionStorage.setItem(KEY, next);
    else window.sessionStorage.removeItem(KEY);
    window.dispatchEvent(new Event(EVENT));
  }, []);
  return [token, setToken];
}

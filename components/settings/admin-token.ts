"use client";

import { useCallback, useSyncExternalStore } from "react";

/**
 * The admin token, entered once per browser session: kept in sessionStorage (gone when the tab
 * closes), never in a cookie or localStorage, and sent only as a Bearer header to the REST API.
 */
const KEY = "benchtrack-admin-token";
const EVENT = "benchtrack-admin-token-change";

function subscribe(onChange: () => void) {
  window.addEventListener(EVENT, onChange);
  return () => window.removeEventListener(EVENT, onChange);
}

export function useAdminToken(): [string | null, (token: string | null) => void] {
  const token = useSyncExternalStore(
    subscribe,
    () => window.sessionStorage.getItem(KEY),
    () => null,
  );
  const setToken = useCallback((next: string | null) => {
    if (next) window.sessionStorage.setItem(KEY, next);
    else window.sessionStorage.removeItem(KEY);
    window.dispatchEvent(new Event(EVENT));
  }, []);
  return [token, setToken];
}

export interface ApiProblem {
  status: number;
  message: string;
  details: { path: string; message: string }[];
}

/** Calls the REST API with the admin token; resolves to the JSON body or an ApiProblem. */
export async function adminFetch<T>(token: string, url: string, init: RequestInit = {}): Promise<T | ApiProblem> {
  const response = await fetch(url, {
    ...init,
    headers: { ...init.headers, Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
  });
  if (response.status === 204) return undefined as T;
  const body = (await response.json().catch(() => null)) as
    | { error?: { message: string; details: { path: string; message: string }[] } }
    | null;
  if (!response.ok) {
    return { status: response.status, message: body?.error?.message ?? response.statusText, details: body?.error?.details ?? [] };
  }
  return body as T;
}

export function isProblem(value: unknown): value is ApiProblem {
  return typeof value === "object" && value !== null && "status" in value && "message" in value && "details" in value;
}

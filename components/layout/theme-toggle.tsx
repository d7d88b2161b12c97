"use client";

import { useEffect, useSyncExternalStore } from "react";
import { THEME_STORAGE_KEY } from "./theme-script";

type ThemeChoice = "system" | "light" | "dark";
const NEXT_CHOICE: Record<ThemeChoice, ThemeChoice> = { system: "light", light: "dark", dark: "system" };
const ICON: Record<ThemeChoice, string> = { system: "◐", light: "☀", dark: "☾" };
const CHANGE_EVENT = "benchtrack-theme-change";

function readChoice(): ThemeChoice {
  const stored = window.localStorage.getItem(THEME_STORAGE_KEY);
  return stored === "light" || stored === "dark" ? stored : "system";
}

function applyTheme(choice: ThemeChoice) {
  const prefersDark = window.matchMedia("(prefers-color-scheme: dark)").matches;
  document.documentElement.classList.toggle("dark", choice === "dark" || (choice === "system" && prefersDark));
  document.documentElement.dataset.theme = choice;
}

function subscribe(onChange: () => void) {
  window.addEventListener(CHANGE_EVENT, onChange);
  window.addEventListener("storage", onChange);
  return () => {
    window.removeEventListener(CHANGE_EVENT, onChange);
    window.removeEventListener("storage", onChange);
  };
}

/** Cycles system → light → dark. "System" keeps following the OS when it changes. */
export function ThemeToggle() {
  const choice = useSyncExternalStore(subscribe, readChoice, () => "system" as const);

  useEffect(() => {
    const media = window.matchMedia("(prefers-color-scheme: dark)");
    const onSystemChange = () => applyTheme(readChoice());
    media.addEventListener("change", onSystemChange);
    return () => media.removeEventListener("change", onSystemChange);
  }, []);

  return (
    <button
      type="button"
      onClick={() => {
        const next = NEXT_CHOICE[choice];
        window.localStorage.setItem(THEME_STORAGE_KEY, next);
        applyTheme(next);
        window.dispatchEvent(new Event(CHANGE_EVENT));
      }}
      className="rounded-md border border-border px-2.5 py-1 text-sm text-text-muted hover:bg-surface-muted hover:text-text"
      aria-label={`Theme: ${choice}. Change theme`}
      title={`Theme: ${choice}`}
      data-testid="theme-toggle"
    >
      <span aria-hidden="true">{ICON[choice]}</span>
      <span className="ml-1.5 hidden sm:inline">{choice}</span>
    </button>
  );
}

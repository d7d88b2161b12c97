/**
 * Sets the `dark` class before the first paint, so a dark-mode user never sees a white flash.
 * The choice ("light" | "dark" | "system") lives in localStorage; "system" (the default) follows
 * prefers-color-scheme.
 */
export const THEME_STORAGE_KEY = "benchtrack-theme";

const script = `(() => {
  try {
    const choice = localStorage.getItem(${JSON.stringify(THEME_STORAGE_KEY)}) || "system";
    const dark = choice === "dark" || (choice === "system" && matchMedia("(prefers-color-scheme: dark)").matches);
    document.documentElement.classList.toggle("dark", dark);
    document.documentElement.dataset.theme = choice;
  } catch {}
})();`;

/** `nonce`: the page's CSP nonce (proxy.ts); without it the policy would not let the script run. */
export function ThemeScript({ nonce }: { nonce?: string }) {
  return <script nonce={nonce} dangerouslySetInnerHTML={{ __html: script }} />;
}

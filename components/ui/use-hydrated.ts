import { useSyncExternalStore } from "react";

const subscribe = () => () => undefined;

/**
 * False in the server's HTML and until React has hydrated the page, true after. A control whose state
 * lives in React (a selection checkbox) stays disabled until then: a click before hydration would tick the
 * native box while React's state stays empty, and the actions it enables would never enable.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}

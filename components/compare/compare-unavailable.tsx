import { EmptyState } from "@/components/ui/empty-state";

/**
 * Why a comparison link shows no comparison: a selector that does not parse ("invalid"), or one that
 * matches no run ("empty"). `message` is the service's own (server/services/compare/comparisons.ts).
 */
export function CompareUnavailable({ reason, message }: { reason: "invalid" | "empty"; message: string }) {
  if (reason === "invalid") return <EmptyState title="This comparison link is not valid">{message}</EmptyState>;
  return (
    <EmptyState title="Nothing to compare">
      {message} Check the selectors (run ids, <code>label:…</code>, <code>branch:…</code>, <code>commit:…</code>).
    </EmptyState>
  );
}

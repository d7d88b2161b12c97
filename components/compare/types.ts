import type { inferRouterInputs } from "@trpc/server";
import type { AppRouter, RouterOutputs } from "@/server/api/root";

/** The comparison as the compare.get procedure returns it (server/services/compare/comparisons.ts): types flow from the server. */
export type ComparisonData = RouterOutputs["compare"]["get"];
/** What the compare page asks compare.get for: the selectors as typed, and the public base URL. */
export type CompareInput = inferRouterInputs<AppRouter>["compare"]["get"];

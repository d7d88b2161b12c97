import { QueryClient, defaultShouldDehydrateQuery } from "@tanstack/react-query";
import superjson from "superjson";
import { serializeForWire } from "./wire-json";

/** One QueryClient recipe for the server render and the browser, with superjson on both sides (wire-json.ts). */
export function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // Data rendered on the server is fresh for a while; no refetch right after hydration.
        staleTime: 30_000,
      },
      dehydrate: {
        serializeData: serializeForWire,
        shouldDehydrateQuery: (query) =>
          defaultShouldDehydrateQuery(query) || query.state.status === "pending",
      },
      hydrate: {
        deserializeData: superjson.deserialize,
      },
    },
  });
}

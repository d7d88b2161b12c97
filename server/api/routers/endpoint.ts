import { createTRPCRouter } from "../trpc";

// Procedures for the per-endpoint trend page.
export const endpointRouter = createTRPCRouter({});

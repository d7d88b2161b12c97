import { createTRPCRouter } from "../trpc";

// Procedures for the run history and the run report pages.
export const runRouter = createTRPCRouter({});

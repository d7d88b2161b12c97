import { createTRPCRouter } from "../trpc";

// Procedures for the run history page.
export const historyRouter = createTRPCRouter({});

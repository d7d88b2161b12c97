import type { inferRouterOutputs } from "@trpc/server";
import { compareRouter } from "./routers/compare";
import { endpointRouter } from "./routers/endpoint";
import { historyRouter } from "./routers/history";
import { projectRouter } from "./routers/project";
import { runRouter } from "./routers/run";
import { createCallerFactory, createTRPCRouter } from "./trpc";

export const appRouter = createTRPCRouter({
  project: projectRouter,
  run: runRouter,
  history: historyRouter,
  endpoint: endpointRouter,
  compare: compareRouter,
});

export type AppRouter = typeof appRouter;
export type RouterOutputs = inferRouterOutputs<AppRouter>;
export const createCaller = createCallerFactory(appRouter);

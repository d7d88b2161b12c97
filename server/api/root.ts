import type { inferRouterOutputs } from "@trpc/server";
import { accessRouter } from "./routers/access";
import { annotationRouter } from "./routers/annotation";
import { baselineRouter } from "./routers/baseline";
import { capacityRouter } from "./routers/capacity";
import { compareRouter } from "./routers/compare";
import { endpointRouter } from "./routers/endpoint";
import { historyRouter } from "./routers/history";
import { memberRouter } from "./routers/member";
import { incidentRouter } from "./routers/incident";
import { projectRouter } from "./routers/project";
import { changeRouter } from "./routers/change";
import { runRouter } from "./routers/run";
import { sessionRouter } from "./routers/session";
import { shareRouter } from "./routers/share";
import { settingsRouter } from "./routers/settings";
import { tokenRouter } from "./routers/token";
import { userRouter } from "./routers/user";
import { webhookRouter } from "./routers/webhook";
import { createCallerFactory, createTRPCRouter } from "./trpc";

export const appRouter = createTRPCRouter({
  access: accessRouter,
  project: projectRouter,
  run: runRouter,
  history: historyRouter,
  endpoint: endpointRouter,
  capacity: capacityRouter,
  compare: compareRouter,
  settings: settingsRouter,
  session: sessionRouter,
  share: shareRouter,
  token: tokenRouter,
  baseline: baselineRouter,
  annotation: annotationRouter,
  change: changeRouter,
  incident: incidentRouter,
  webhook: webhookRouter,
  member: memberRouter,
  user: userRouter,
});

export type AppRouter = typeof appRouter;
export type RouterOutputs = inferRouterOutputs<AppRouter>;
export const createCaller = createCallerFactory(appRouter);

import { listProjects } from "../../services/projects";
import { createTRPCRouter, publicProcedure } from "../trpc";

export const projectRouter = createTRPCRouter({
  list: publicProcedure.query(({ ctx }) => listProjects(ctx.db)),
});

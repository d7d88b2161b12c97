import { isPrivate } from "../../services/auth";
import { sessionRoleOf } from "../../services/sessions";
import { createTRPCRouter, openProcedure } from "../trpc";

/**
 * What the browser's session cookie grants ("read", "admin" or null) and whether the server is private:
 * the layout shows admin controls and a sign-out button by it, the sign-in page its wording. Anyone may
 * ask; the answer says nothing about anyone else.
 */
export const sessionRouter = createTRPCRouter({
  get: openProcedure.query(async ({ ctx }) => ({ role: await sessionRoleOf(ctx.session), private: isPrivate() })),
});

import { isPrivate } from "../../services/access";
import { sessionRoleOf } from "../../services/access";
import { describeShareLink } from "../../services/sharing";
import { createTRPCRouter, openProcedure } from "../trpc";

/**
 * What the browser's session cookie grants ("read", "admin", "user" or null) and whether the server's default is private:
 * the layout shows admin controls and a sign-out button by it, the sign-in page its wording. Without a
 * session, `share` is the share link the page was opened with (what it opens and
 * until when): the layout then keeps the page's links inside the link. Anyone may ask; the answer says
 * nothing about anyone else.
 */
export const sessionRouter = createTRPCRouter({
  get: openProcedure.query(async ({ ctx }) => {
    const role = await sessionRoleOf(ctx.session);
    const link = role === null && ctx.share ? await describeShareLink(ctx.db, ctx.share) : null;
    return { role, private: isPrivate(), share: link?.status === "open" ? link : null };
  }),
});

import { isPrivate, oidcSignInOffer, sessionHolderOf } from "../../services/access";
import { describeShareLink } from "../../services/sharing";
import { createTRPCRouter, openProcedure } from "../trpc";

/**
 * What the browser's session cookie grants and who holds it: `role` ("admin", "read", "user" or null),
 * `user` (a person signed in with the identity provider: name, email, whether a server admin; null
 * otherwise, and for a person disabled since, whose session opens nothing), whether the server's
 * default is private, and `oidc` (the identity provider the sign-in page offers, by name; null without one). The
 * layout shows admin controls, the person and a sign-out button by it, the sign-in page its wording.
 * Without a session on a private server, `share` is the share link the page was opened with (what it
 * opens and until when): the layout then keeps the page's links inside the link. Anyone may ask; the
 * answer says nothing about anyone else.
 */
export const sessionRouter = createTRPCRouter({
  get: openProcedure.query(async ({ ctx }) => {
    const { role, user } = await sessionHolderOf(ctx.db, ctx.session);
    const link = role === null && ctx.share ? await describeShareLink(ctx.db, ctx.share) : null;
    return { role, user, private: isPrivate(), share: link?.status === "open" ? link : null, oidc: oidcSignInOffer() };
  }),
});

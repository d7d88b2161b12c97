/**
 * Members: who holds which role in a project (its grants, by email or by identity-provider group), who
 * may read it (its visibility), and the server's people (server admins only). docs/access.md.
 *
 * The module's public face: code outside server/services/members/ imports from here, never from its files
 * (eslint.config.js holds that line and which modules this one may use).
 */
export { grantMember, listMembers, removeMember, updateMember } from "./members";
export type { MemberList, MemberView } from "./members";
export { listUsers, updateUser } from "./people";
export type { UserView } from "./people";
export { applyVisibility, setProjectVisibility, visibilityState } from "./visibility";
export type { VisibilityState } from "./visibility";

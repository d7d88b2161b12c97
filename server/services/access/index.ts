/**
 * Access: who the caller is (admin token, read token, project tokens, sessions) and what they may do.
 *
 * The module's public face: code outside server/services/access/ imports from here, never from its files
 * (eslint.config.js holds that line and which modules this one may use).
 */
export { credentialsOfHeaders, isPrivate, isServerAdmin, metricsReaderOf, readTargetOfPage, requireAdmin, requireToken, resolvePrincipalLimited, safeNextPath, shareCovers, shareReadTarget, signInRole } from "./auth";
export type { Credentials, Principal, ReadTarget, ShareRead, SignedInUser } from "./auth";
export { PROJECT_REF_SELECT, admitRead, allowedActions, defaultRole, describeProjectAccess, effectiveVisibility, readsForAnyone, readableProjectsWhere, requireProjectAccess, requireProjectRead, userRoleIn } from "./project-access";
export type { ProjectAccess, ProjectRef, ReadCaller } from "./project-access";
export { OIDC_CALLBACK_PATH, OIDC_START_PATH, OIDC_TRANSACTION_COOKIE, OIDC_TRANSACTION_TTL_SECONDS, beginOidcSignIn, completeOidcSignIn, oidcRedirectUri, oidcSignInOffer } from "./oidc-sign-in";
export type { OidcCompletion, OidcStart } from "./oidc-sign-in";
export { sessionHolderOf } from "./session-holder";
export type { SessionPerson } from "./session-holder";
export { SESSION_TTL_SECONDS, sealSession, sealShare, sessionOf, sessionRoleOf } from "./sessions";
export type { Session, SessionRole } from "./sessions";
export { MAX_SHARE_TOKEN_LENGTH, SHARE_ID_PATTERN, newShareId, normalizeShareToken, readShareLink, storedShareScopeSchema } from "./share-grants";
export type { ShareLinkState, ShareRefusal, StoredShareScope } from "./share-grants";
export type { ShareScope } from "./sessions";
export { newTokenSecret } from "./tokens";

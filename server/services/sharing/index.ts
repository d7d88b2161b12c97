/**
 * Sharing: read-only share links for a run or a comparison, and what each one opens.
 *
 * The module's public face: code outside server/services/sharing/ imports from here, never from its files
 * (eslint.config.js holds that line and which modules this one may use).
 */
export { createShareLink, createShareLinkWithMarkdown, describeShareLink, shareLinkFor, shortLinkTarget } from "./share-links";
export type { ShareMinting } from "./share-links";
export { SHARE_LINK_LIST_LIMIT, listShareLinks, revokeShareLink } from "./share-link-admin";

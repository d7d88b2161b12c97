/**
 * The names under which access travels between the browser and the server (server/services/sessions.ts
 * seals what they carry): the session cookie a sign-in leaves, and a share link's query parameter,
 * which the dashboard forwards to tRPC in a header.
 */
export const SESSION_COOKIE = "benchtrack_session";
export const SHARE_PARAM = "share";
export const SHARE_HEADER = "x-benchtrack-share";

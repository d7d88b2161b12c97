/**
 * The names under which access travels between the browser and the server (server/services/access/sessions.ts
 * seals what they carry): the session cookie a sign-in leaves, and a share link's query parameter,
 * which the dashboard forwards to tRPC in a header.
 */
export const SESSION_COOKIE = "benchtrack_session";
export const SHARE_PARAM = "share";
export const SHARE_HEADER = "x-benchtrack-share";

/** `href` (a path or an absolute URL, with or without a query or fragment) carrying a share token. */
export function withShareParam(href: string, token: string): string {
  const hashAt = href.indexOf("#");
  const [path, hash] = hashAt === -1 ? [href, ""] : [href.slice(0, hashAt), href.slice(hashAt)];
  const queryAt = path.indexOf("?");
  // Other parameters keep their spelling (a comparison's `a,b` stays readable): only the token is appended.
  const kept = queryAt === -1 ? "" : path.slice(queryAt + 1).split("&").filter((part) => part !== "" && !part.startsWith(`${SHARE_PARAM}=`)).join("&");
  const query = [kept, new URLSearchParams({ [SHARE_PARAM]: token }).toString()].filter(Boolean).join("&");
  return `${queryAt === -1 ? path : path.slice(0, queryAt)}?${query}${hash}`;
}

import { createShareLinkSchema, shareLinkListSchema, shareLinkSchema } from "../../schemas/share-links";
import type { ApiResource } from "./building-blocks";
import { answer, operation, pathParameter, projectParameter, request, success } from "./building-blocks";

/** Share links: read-only, expiring links to one comparison (with its runs) or one run, for a private server's PR comments and the dashboard's Share button. */
export const shareLinksResource: ApiResource = {
  schemas: {
    CreateShareLink: request(createShareLinkSchema),
    ShareLink: answer(shareLinkSchema),
    ShareLinkList: answer(shareLinkListSchema),
  },
  paths: {
    "/api/v1/projects/{project}/share-links": {
      parameters: [projectParameter],
      post: operation({
        operationId: "createShareLink",
        tag: "projects",
        summary: "A read-only link to one comparison or run that opens without signing in until it expires (maintainers, tokens of the project with the read scope)",
        description:
          "The link is stored: its URL carries only a random id of 22 characters (`?share=`), and the project's maintainers may list and revoke it. The same scope minted again by the same caller with the same lifetime within a day answers the link minted then. A comparison's link is pinned to the runs its selectors stand for when minted (the link names them by id), and also opens those runs' pages, raw uploads (GET …/runs/{id}/raw), JSON (GET …/runs/{id}, …/verdict) and the comparison's JSON (GET …/compare); a run's link opens the run's page, raw upload and JSON. Send the id as `?share=` or in the X-Benchtrack-Share header (as copied from the URL; percent-encoding is undone). Anything else answers 403; an expired, revoked or unknown link 401.",
        security: "token",
        body: "CreateShareLink",
        responses: { "201": success("Created.", "ShareLink") },
      }),
      get: operation({
        operationId: "listShareLinks",
        tag: "projects",
        summary: "The project's stored share links, newest first, with what each opens and whether it is open, expired or revoked (its maintainers)",
        security: "token",
        responses: { "200": success("The links.", "ShareLinkList") },
      }),
    },
    "/api/v1/projects/{project}/share-links/{id}": {
      parameters: [projectParameter, pathParameter("id", "The link's id: the 22 characters after ?share= in its URL.")],
      delete: operation({
        operationId: "revokeShareLink",
        tag: "projects",
        summary: "Revoke a share link (its maintainers): it opens nothing from then on (or was revoked already)",
        security: "token",
        responses: { "204": success("Revoked (or already revoked).") },
      }),
    },
  },
};

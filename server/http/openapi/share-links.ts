import { createShareLinkSchema, shareLinkSchema } from "../../schemas/share-links";
import type { ApiResource } from "./building-blocks";
import { answer, operation, projectParameter, request, success } from "./building-blocks";

/** Share links: read-only, expiring links to one comparison (with its runs) or one run, for a private server's PR comments and the dashboard's Share button. */
export const shareLinksResource: ApiResource = {
  schemas: {
    CreateShareLink: request(createShareLinkSchema),
    ShareLink: answer(shareLinkSchema),
  },
  paths: {
    "/api/v1/projects/{project}/share-links": {
      parameters: [projectParameter],
      post: operation({
        operationId: "createShareLink",
        tag: "projects",
        summary: "A read-only link to one comparison or run that opens without signing in until it expires (admin or a token of the project)",
        description:
          "A comparison's link is pinned to the runs its selectors stand for when minted (the link names them by id), and also opens those runs' pages, raw uploads (GET …/runs/{id}/raw), JSON (GET …/runs/{id}, …/verdict) and the comparison's JSON (GET …/compare); a run's link opens the run's page, raw upload and JSON. Send the token as `?share=` (or the X-Benchtrack-Share header). Anything else answers 403.",
        security: "token",
        body: "CreateShareLink",
        responses: { "201": success("Created.", "ShareLink") },
      }),
    },
  },
};

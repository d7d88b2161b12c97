import { createShareLinkSchema, shareLinkSchema } from "../../schemas/share-links";
import type { ApiResource } from "./building-blocks";
import { answer, operation, projectParameter, request, success } from "./building-blocks";

/** Share links: read-only, expiring links to one comparison or one run, for a private server's PR comments. */
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
        security: "token",
        body: "CreateShareLink",
        responses: { "201": success("Created.", "ShareLink") },
      }),
    },
  },
};

import { createShareLinkSchema, shareLinkSchema } from "../../schemas/share-links";
import type { ApiResource } from "./building-blocks";
import { answer, errorResponses, jsonContent, projectParameter, ref, request, SECURITY_BEARER } from "./building-blocks";

/** Share links: read-only, expiring links to one comparison or one run, for a private server's PR comments. */
export const shareLinksResource: ApiResource = {
  schemas: {
    CreateShareLink: request(createShareLinkSchema),
    ShareLink: answer(shareLinkSchema),
  },
  paths: {
    "/api/v1/projects/{project}/share-links": {
      parameters: [projectParameter],
      post: {
        operationId: "createShareLink",
        tags: ["projects"],
        summary: "A read-only link to one comparison or run that opens without signing in until it expires (admin or a token of the project)",
        security: SECURITY_BEARER,
        requestBody: { required: true, content: jsonContent(ref("schemas", "CreateShareLink")) },
        responses: {
          "201": { description: "Created.", content: jsonContent(ref("schemas", "ShareLink")) },
          ...errorResponses("BadRequest", "Unauthorized", "Forbidden", "NotFound"),
        },
      },
    },
  },
};

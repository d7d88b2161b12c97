import { createdTokenSchema, createTokenSchema, tokenListSchema } from "../../schemas/tokens";
import type { ApiResource } from "./building-blocks";
import { answer, errorResponses, jsonContent, pathParameter, projectParameter, ref, request, SECURITY_BEARER } from "./building-blocks";

/** Project upload tokens (admin). */
export const tokensResource: ApiResource = {
  schemas: {
    CreateToken: request(createTokenSchema),
    CreatedToken: answer(createdTokenSchema),
    TokenList: answer(tokenListSchema),
  },
  paths: {
    "/api/v1/projects/{project}/tokens": {
      parameters: [projectParameter],
      post: {
        operationId: "createToken",
        tags: ["tokens"],
        summary: "Create an upload token (admin); the secret is in this answer only",
        security: SECURITY_BEARER,
        requestBody: { required: false, content: jsonContent(ref("schemas", "CreateToken")) },
        responses: {
          "201": { description: "Created.", content: jsonContent(ref("schemas", "CreatedToken")) },
          ...errorResponses("BadRequest", "Unauthorized", "Forbidden", "NotFound"),
        },
      },
      get: {
        operationId: "listTokens",
        tags: ["tokens"],
        summary: "List tokens, never their secrets (admin)",
        security: SECURITY_BEARER,
        responses: {
          "200": { description: "The tokens.", content: jsonContent(ref("schemas", "TokenList")) },
          ...errorResponses("BadRequest", "Unauthorized", "Forbidden", "NotFound"),
        },
      },
    },
    "/api/v1/projects/{project}/tokens/{id}": {
      parameters: [projectParameter, pathParameter("id", "The token's id.")],
      delete: {
        operationId: "revokeToken",
        tags: ["tokens"],
        summary: "Revoke a token (admin)",
        security: SECURITY_BEARER,
        responses: {
          "204": { description: "Revoked (or already revoked)." },
          ...errorResponses("BadRequest", "Unauthorized", "Forbidden", "NotFound"),
        },
      },
    },
  },
};

import { createdTokenSchema, createTokenSchema, tokenListSchema } from "../../schemas/tokens";
import type { ApiResource } from "./building-blocks";
import { answer, operation, pathParameter, projectParameter, request, success } from "./building-blocks";

/** Project tokens (its maintainers). */
export const tokensResource: ApiResource = {
  schemas: {
    CreateToken: request(createTokenSchema),
    CreatedToken: answer(createdTokenSchema),
    TokenList: answer(tokenListSchema),
  },
  paths: {
    "/api/v1/projects/{project}/tokens": {
      parameters: [projectParameter],
      post: operation({
        operationId: "createToken",
        tag: "tokens",
        summary: "Create a token (its maintainers); the secret is in this answer only",
        security: "token",
        body: { schema: "CreateToken", required: false },
        responses: { "201": success("Created.", "CreatedToken") },
      }),
      get: operation({
        operationId: "listTokens",
        tag: "tokens",
        summary: "List tokens, never their secrets (its maintainers)",
        security: "token",
        responses: { "200": success("The tokens.", "TokenList") },
      }),
    },
    "/api/v1/projects/{project}/tokens/{id}": {
      parameters: [projectParameter, pathParameter("id", "The token's id.")],
      delete: operation({
        operationId: "revokeToken",
        tag: "tokens",
        summary: "Revoke a token (its maintainers)",
        security: "token",
        responses: { "204": success("Revoked (or already revoked).") },
      }),
    },
  },
};

import { createdTokenSchema, createTokenSchema, tokenListSchema } from "../../schemas/tokens";
import type { ApiResource } from "./building-blocks";
import { answer, operation, pathParameter, projectParameter, request, success } from "./building-blocks";

/** Project tokens (its maintainers): scoped, named, expiring. */
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
        description:
          'A token uploads only unless given more scopes ("read", "triage"); it acts on its own project only. A name taken by a live token of the project is 409; an unknown scope, an expiry in the past or beyond 3650 days is 400.',
        security: "token",
        body: "CreateToken",
        responses: { "201": success("Created.", "CreatedToken") },
        errors: ["Unauthorized", "Forbidden", "NotFound", "Conflict"],
      }),
      get: operation({
        operationId: "listTokens",
        tag: "tokens",
        summary: "List tokens with their scopes, expiry, last use and who made them, never their secrets (its maintainers)",
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

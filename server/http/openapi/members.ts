import { grantMemberSchema, memberListSchema, memberSchema, updateMemberSchema, updateUserSchema, userListSchema, userSchema } from "../../schemas/members";
import type { ApiResource } from "./building-blocks";
import { answer, operation, pathParameter, projectParameter, request, success } from "./building-blocks";

/** A project's members (maintainers and admins) and the server's people (server admins): docs/access.md. */
export const membersResource: ApiResource = {
  schemas: {
    GrantMember: request(grantMemberSchema),
    UpdateMember: request(updateMemberSchema),
    Member: answer(memberSchema),
    MemberList: answer(memberListSchema),
    UpdateUser: request(updateUserSchema),
    User: answer(userSchema),
    UserList: answer(userListSchema),
  },
  paths: {
    "/api/v1/projects/{project}/members": {
      parameters: [projectParameter],
      get: operation({
        operationId: "listMembers",
        tag: "access",
        summary: "The project's grants, with the people each matches now, and its visibility (maintainers, admins)",
        security: "token",
        responses: { "200": success("The grants and the visibility.", "MemberList") },
      }),
      post: operation({
        operationId: "grantMember",
        tag: "access",
        summary: "Grant a role to an email or an identity-provider group (maintainers, admins); granting again changes the role",
        security: "token",
        body: "GrantMember",
        responses: { "201": success("Granted.", "Member"), "200": success("The email or group had a grant: its role is now this one.", "Member") },
        errors: ["Unauthorized", "Forbidden", "NotFound", "Conflict"],
      }),
    },
    "/api/v1/projects/{project}/members/{id}": {
      parameters: [projectParameter, pathParameter("id", "The grant's id.")],
      patch: operation({
        operationId: "updateMember",
        tag: "access",
        summary: "Change a grant's role (maintainers, admins)",
        security: "token",
        body: "UpdateMember",
        responses: { "200": success("The grant.", "Member") },
      }),
      delete: operation({
        operationId: "removeMember",
        tag: "access",
        summary: "Remove a grant (maintainers, admins)",
        security: "token",
        responses: { "204": success("Removed.") },
      }),
    },
    "/api/v1/users": {
      get: operation({
        operationId: "listUsers",
        tag: "access",
        summary: "Everyone who signed in, most recent sign-in first (server admins)",
        security: "token",
        responses: { "200": success("The people.", "UserList") },
        errors: ["Unauthorized", "Forbidden"],
      }),
    },
    "/api/v1/users/{id}": {
      parameters: [pathParameter("id", "The person's id.")],
      patch: operation({
        operationId: "updateUser",
        tag: "access",
        summary: "Make or unmake a server admin, disable (sessions stop at once) or enable a person (server admins)",
        security: "token",
        body: "UpdateUser",
        responses: { "200": success("The person.", "User") },
        errors: ["Unauthorized", "Forbidden", "NotFound", "Conflict"],
      }),
    },
  },
};

import { createdProjectSchema, createProjectSchema, projectListSchema, projectSettingsSchema, updateProjectSchema } from "../../schemas/projects";
import { deletedProjectSchema } from "../../schemas/audit";
import type { ApiResource } from "./building-blocks";
import { answer, operation, projectParameter, request, success } from "./building-blocks";

/** Projects: the services under test and their settings. */
export const projectsResource: ApiResource = {
  schemas: {
    CreateProject: request(createProjectSchema),
    Project: answer(createdProjectSchema),
    ProjectList: answer(projectListSchema),
    UpdateProject: request(updateProjectSchema),
    ProjectSettings: answer(projectSettingsSchema),
    DeletedProject: answer(deletedProjectSchema),
  },
  paths: {
    "/api/v1/projects": {
      get: operation({
        operationId: "listProjects",
        tag: "projects",
        summary: "List projects",
        security: "read",
        responses: { "200": success("The projects.", "ProjectList") },
        errors: ["Unauthorized", "Forbidden"],
      }),
      post: operation({
        operationId: "createProject",
        tag: "projects",
        summary: "Create a project (a server admin)",
        security: "token",
        body: "CreateProject",
        responses: { "201": success("Created.", "Project") },
        errors: ["BadRequest", "Unauthorized", "Forbidden", "Conflict"],
      }),
    },
    "/api/v1/projects/{project}": {
      parameters: [projectParameter],
      get: operation({
        operationId: "getProject",
        tag: "projects",
        summary: "The project and its settings",
        security: "read",
        responses: { "200": success("The project.", "ProjectSettings") },
      }),
      patch: operation({
        operationId: "updateProject",
        tag: "projects",
        summary: "Change the project's settings (its maintainers)",
        security: "token",
        body: "UpdateProject",
        responses: { "200": success("The updated project.", "ProjectSettings") },
      }),
      delete: operation({
        operationId: "deleteProject",
        tag: "projects",
        summary: "Delete the project and everything of it (its maintainers)",
        description:
          "Runs and their raw files, incidents, tokens, share links, webhook deliveries, rollups, the rate-limit rows of its tokens and its " +
          "queued jobs, in one transaction (docs/operations.md, \"Deleting and retention\"). Its audit entries stay, with one recording this.",
        security: "token",
        responses: { "200": success("Deleted: what went.", "DeletedProject") },
      }),
    },
  },
};

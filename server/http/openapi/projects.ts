import { createdProjectSchema, createProjectSchema, projectListSchema, projectSettingsSchema, updateProjectSchema } from "../../schemas/projects";
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
        summary: "Create a project (admin)",
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
        summary: "Change the project's settings (admin)",
        security: "token",
        body: "UpdateProject",
        responses: { "200": success("The updated project.", "ProjectSettings") },
      }),
    },
  },
};

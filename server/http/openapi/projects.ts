import { createdProjectSchema, createProjectSchema, projectListSchema, projectSettingsSchema, updateProjectSchema } from "../../schemas/projects";
import type { ApiResource } from "./building-blocks";
import { answer, errorResponses, jsonContent, projectParameter, ref, request, SECURITY_BEARER, SECURITY_READ } from "./building-blocks";

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
      get: {
        operationId: "listProjects",
        tags: ["projects"],
        summary: "List projects",
        security: SECURITY_READ,
        responses: {
          "200": { description: "The projects.", content: jsonContent(ref("schemas", "ProjectList")) },
          ...errorResponses("Unauthorized"),
        },
      },
      post: {
        operationId: "createProject",
        tags: ["projects"],
        summary: "Create a project (admin)",
        security: SECURITY_BEARER,
        requestBody: { required: true, content: jsonContent(ref("schemas", "CreateProject")) },
        responses: {
          "201": { description: "Created.", content: jsonContent(ref("schemas", "Project")) },
          ...errorResponses("BadRequest", "Unauthorized", "Forbidden", "Conflict"),
        },
      },
    },
    "/api/v1/projects/{project}": {
      parameters: [projectParameter],
      get: {
        operationId: "getProject",
        tags: ["projects"],
        summary: "The project and its settings",
        security: SECURITY_READ,
        responses: {
          "200": { description: "The project.", content: jsonContent(ref("schemas", "ProjectSettings")) },
          ...errorResponses("Unauthorized", "NotFound"),
        },
      },
      patch: {
        operationId: "updateProject",
        tags: ["projects"],
        summary: "Change the project's settings (admin)",
        security: SECURITY_BEARER,
        requestBody: { required: true, content: jsonContent(ref("schemas", "UpdateProject")) },
        responses: {
          "200": { description: "The updated project.", content: jsonContent(ref("schemas", "ProjectSettings")) },
          ...errorResponses("BadRequest", "Unauthorized", "Forbidden", "NotFound"),
        },
      },
    },
  },
};

import {
  annotationListSchema,
  annotationQuerySchema,
  annotationSchema,
  createAnnotationSchema,
  createMarkerSchema,
} from "../../schemas/annotations";
import type { ApiResource } from "./building-blocks";
import {
  answer,
  errorResponses,
  jsonContent,
  pathParameter,
  projectParameter,
  queryParameters,
  ref,
  request,
  runIdParameter,
  SECURITY_BEARER,
  SECURITY_READ,
} from "./building-blocks";

/** Notes on runs ("deployed v2.3") and the project's deploy and change markers, shown on every trend chart. */
export const annotationsResource: ApiResource = {
  schemas: {
    CreateAnnotation: request(createAnnotationSchema),
    CreateMarker: request(createMarkerSchema),
    Annotation: answer(annotationSchema),
    AnnotationList: answer(annotationListSchema),
  },
  paths: {
    "/api/v1/projects/{project}/runs/{id}/annotations": {
      parameters: [projectParameter, runIdParameter],
      get: {
        operationId: "listRunAnnotations",
        tags: ["runs"],
        summary: "The run's annotations, oldest first",
        security: SECURITY_READ,
        responses: {
          "200": { description: "The annotations.", content: jsonContent(ref("schemas", "AnnotationList")) },
          ...errorResponses("BadRequest", "Unauthorized", "NotFound"),
        },
      },
      post: {
        operationId: "createRunAnnotation",
        tags: ["runs"],
        summary: 'Annotate a run ("deployed v2.3"), shown on every chart that includes it (admin)',
        security: SECURITY_BEARER,
        requestBody: { required: true, content: jsonContent(ref("schemas", "CreateAnnotation")) },
        responses: {
          "201": { description: "Created.", content: jsonContent(ref("schemas", "Annotation")) },
          ...errorResponses("BadRequest", "Unauthorized", "Forbidden", "NotFound"),
        },
      },
    },
    "/api/v1/projects/{project}/annotations": {
      parameters: [projectParameter],
      get: {
        operationId: "listAnnotations",
        tags: ["runs"],
        summary: "The project's notes and markers in a window, oldest first (at most 500: the newest)",
        security: SECURITY_READ,
        parameters: queryParameters(annotationQuerySchema),
        responses: {
          "200": { description: "The annotations.", content: jsonContent(ref("schemas", "AnnotationList")) },
          ...errorResponses("BadRequest", "Unauthorized", "NotFound"),
        },
      },
      post: {
        operationId: "createMarker",
        tags: ["runs"],
        summary:
          'A marker on a run or at a time: "deploy", "note", or "change" (a known config or hardware change: change-point detection never looks across it) (admin or the project\'s token)',
        security: SECURITY_BEARER,
        requestBody: { required: true, content: jsonContent(ref("schemas", "CreateMarker")) },
        responses: {
          "201": { description: "Created.", content: jsonContent(ref("schemas", "Annotation")) },
          ...errorResponses("BadRequest", "Unauthorized", "Forbidden", "NotFound"),
        },
      },
    },
    "/api/v1/projects/{project}/annotations/{annotationId}": {
      parameters: [projectParameter, pathParameter("annotationId", "The annotation's id.")],
      delete: {
        operationId: "deleteAnnotation",
        tags: ["runs"],
        summary: "Delete an annotation (admin)",
        security: SECURITY_BEARER,
        responses: {
          "204": { description: "Deleted." },
          ...errorResponses("BadRequest", "Unauthorized", "Forbidden", "NotFound"),
        },
      },
    },
  },
};

import {
  annotationListSchema,
  annotationQuerySchema,
  annotationSchema,
  createAnnotationSchema,
  createMarkerSchema,
} from "../../schemas/annotations";
import type { ApiResource } from "./building-blocks";
import { answer, operation, pathParameter, projectParameter, queryParameters, request, runIdParameter, success } from "./building-blocks";

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
      get: operation({
        operationId: "listRunAnnotations",
        tag: "runs",
        summary: "The run's annotations, oldest first",
        security: "read",
        responses: { "200": success("The annotations.", "AnnotationList") },
      }),
      post: operation({
        operationId: "createRunAnnotation",
        tag: "runs",
        summary: 'Annotate a run ("deployed v2.3"), shown on every chart that includes it (the "mark" action: triagers, tokens with the upload or triage scope)',
        security: "token",
        body: "CreateAnnotation",
        responses: { "201": success("Created.", "Annotation") },
      }),
    },
    "/api/v1/projects/{project}/annotations": {
      parameters: [projectParameter],
      get: operation({
        operationId: "listAnnotations",
        tag: "runs",
        summary: "The project's notes and markers in a window, oldest first (at most 500: the newest)",
        security: "read",
        parameters: queryParameters(annotationQuerySchema),
        responses: { "200": success("The annotations.", "AnnotationList") },
      }),
      post: operation({
        operationId: "createMarker",
        tag: "runs",
        summary:
          'A marker on a run or at a time: "deploy", "note", or "change" (a known config or hardware change: change-point detection never looks across it) (the "mark" action: triagers, tokens with the upload or triage scope)',
        security: "token",
        body: "CreateMarker",
        responses: { "201": success("Created.", "Annotation") },
      }),
    },
    "/api/v1/projects/{project}/annotations/{annotationId}": {
      parameters: [projectParameter, pathParameter("annotationId", "The annotation's id.")],
      delete: operation({
        operationId: "deleteAnnotation",
        tag: "runs",
        summary: "Delete an annotation (the \"mark\" action)",
        security: "token",
        responses: { "204": success("Deleted.") },
      }),
    },
  },
};

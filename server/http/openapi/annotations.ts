import { annotationListSchema, annotationSchema, createAnnotationSchema } from "../../schemas/annotations";
import type { ApiResource } from "./building-blocks";
import {
  answer,
  errorResponses,
  jsonContent,
  pathParameter,
  projectParameter,
  ref,
  request,
  runIdParameter,
  SECURITY_BEARER,
  SECURITY_READ,
} from "./building-blocks";

/** Notes on runs ("deployed v2.3"), shown on every chart that includes the run. */
export const annotationsResource: ApiResource = {
  schemas: {
    CreateAnnotation: request(createAnnotationSchema),
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

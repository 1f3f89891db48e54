import { CONTENT_TYPES } from "../contract/headers.ts";
import { MAX_CHECK_SUGGESTIONS } from "../contract/suggest/request.ts";
import type { AnyResource } from "../resources/resource.ts";
import { ETAG_HEADER, headerRef, mime, schemaRef, type Json } from "./openapi-components.ts";

/** Whether a resource answers a JSON object of its own rather than a list of records: the address check. */
export const isAddressCheck = (resource: AnyResource): boolean =>
  resource.search?.role === "addressCheck";

/** The address check's 200: `{ valid, suggestions }`, JSON only. */
export function addressCheckResponse(resource: AnyResource, sample: unknown): Json {
  return {
    description: "Whether the address is valid, and the streets most likely meant, best first.",
    headers: { [ETAG_HEADER]: headerRef(ETAG_HEADER) },
    content: {
      [mime(CONTENT_TYPES.json)]: {
        schema: {
          type: "object",
          required: ["valid", "suggestions"],
          properties: {
            valid: {
              type: "boolean",
              description:
                "The street, postal code and locality given exist together (after normalising case, spaces, str. and transliterations).",
            },
            suggestions: {
              type: "array",
              maxItems: MAX_CHECK_SUGGESTIONS,
              description:
                "The streets most likely meant, best first; when valid, the exact street first.",
              items: schemaRef(resource.record.name),
            },
          },
        },
        ...(sample === undefined
          ? {}
          : { example: { valid: true, suggestions: [sample as Json] } }),
      },
    },
  };
}

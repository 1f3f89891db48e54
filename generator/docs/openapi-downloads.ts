import {
  DOWNLOADS_INDEX,
  DOWNLOADS_PREFIX,
  GZIP_CONTENT_TYPE,
  type DownloadsManifest,
} from "../contract/downloads.ts";
import { CONTENT_TYPES } from "../contract/headers.ts";
import {
  errorResponses,
  ETAG_HEADER,
  headerRef,
  IF_NONE_MATCH,
  mime,
  schemaRef,
  type Json,
} from "./openapi-components.ts";

/** The whole-dataset downloads in the OpenAPI document: the manifest and the files it lists. */

const DOWNLOADS_TAG = "Downloads";

export function downloadsPaths(manifest: DownloadsManifest): Record<string, Json> {
  const examplesOf = (files: readonly string[]) =>
    Object.fromEntries(
      files.slice(0, 4).map((file) => [file.replace(/[^a-z0-9]+/g, "-"), { value: file }]),
    );
  const datasets = manifest.files
    .filter((f) => f.filter === undefined)
    .map((f) => f.path.slice(DOWNLOADS_PREFIX.length));
  const views = manifest.files
    .filter((f) => f.filter !== undefined)
    .map((f) => f.path.slice(DOWNLOADS_PREFIX.length));
  // A spread of real files: a JSON and a CSV file, a part and a gzip copy where there are some.
  const pick = (files: readonly string[]) =>
    [
      ...new Set([
        files.find((f) => f.endsWith(".json")),
        files.find((f) => f.endsWith(".csv")),
        files.find((f) => f.includes(".part-")),
        files.find((f) => f.endsWith(".gz")),
      ]),
    ].filter((f) => f !== undefined);
  const fileParameter = (
    name: string,
    description: string,
    pattern: string,
    files: readonly string[],
  ) => ({
    name,
    in: "path",
    required: true,
    description,
    schema: { type: "string", pattern },
    ...(files.length === 0 ? {} : { examples: examplesOf(pick(files)) }),
  });
  const viewResource = views[0]?.split("/")[0];
  return {
    [DOWNLOADS_INDEX]: {
      get: {
        operationId: "getDownloadsManifest",
        summary: "The downloads manifest",
        description: `Every download file with its size, SHA-256, media type, record count, the endpoint its records come from, and the sources with their licences. Also at ${DOWNLOADS_PREFIX}.`,
        tags: [DOWNLOADS_TAG],
        parameters: [{ $ref: `#/components/parameters/${IF_NONE_MATCH}` }],
        responses: {
          "200": {
            description: "The manifest.",
            headers: { [ETAG_HEADER]: headerRef(ETAG_HEADER) },
            content: { [mime(CONTENT_TYPES.json)]: { schema: schemaRef("DownloadsManifest") } },
          },
          ...errorResponses(false),
        },
      },
    },
    [`${DOWNLOADS_PREFIX}{file}`]: {
      get: fileOperation("getDownloadFile", "A whole dataset, or one part of it", [
        fileParameter(
          "file",
          "A dataset file as the manifest lists it: `{resource}.json`, `.csv`, `{resource}.part-{n}.…` for a part, `… .gz` for a gzip copy.",
          "^[a-z0-9.]+(\\.part-[0-9]+)?\\.(json|csv)(\\.gz)?$",
          datasets,
        ),
      ]),
    },
    [`${DOWNLOADS_PREFIX}{resource}/{file}`]: {
      get: fileOperation(
        "getDownloadViewFile",
        "One view of a dataset, complete (e.g. one locality's streets)",
        [
          {
            name: "resource",
            in: "path",
            required: true,
            description: "The dataset, e.g. de.streets.",
            schema: { type: "string", pattern: "^[a-z0-9.]+$" },
            ...(viewResource === undefined
              ? {}
              : {
                  examples: { [viewResource.replace(/[^a-z0-9]+/g, "-")]: { value: viewResource } },
                }),
          },
          fileParameter(
            "file",
            "The view's slug and format, as the manifest lists it (with its filter).",
            "^[a-z0-9_-]+\\.(json|csv)(\\.gz)?$",
            views.map((v) => v.slice(v.indexOf("/") + 1)),
          ),
        ],
      ),
    },
  };
}

function fileOperation(operationId: string, summary: string, parameters: readonly Json[]): Json {
  return {
    operationId,
    summary,
    description:
      "Served as it is, with its media type; the records are those of the API in its order, in the same JSON shape and CSV columns. A file not in the manifest is a 404.",
    tags: [DOWNLOADS_TAG],
    parameters: [...parameters, { $ref: `#/components/parameters/${IF_NONE_MATCH}` }],
    responses: {
      "200": {
        description: "The file.",
        headers: { [ETAG_HEADER]: headerRef(ETAG_HEADER) },
        content: {
          [mime(CONTENT_TYPES.json)]: {
            schema: {
              type: "array",
              description: "The records, as the endpoint the manifest names answers them.",
              items: { type: "object" },
            },
          },
          [mime(CONTENT_TYPES.csv)]: {
            schema: {
              type: "string",
              description:
                "RFC 4180 CSV with a header row; a value starting with =, +, -, @, tab or carriage return gets a leading ' (formula injection).",
            },
          },
          [GZIP_CONTENT_TYPE]: {
            schema: {
              type: "string",
              contentMediaType: GZIP_CONTENT_TYPE,
              description: "A gzip copy of the file of the same name without .gz.",
            },
          },
        },
      },
      ...errorResponses(false),
    },
  };
}

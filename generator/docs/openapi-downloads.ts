import { DOWNLOADS_INDEX, DOWNLOADS_PREFIX, GZIP_CONTENT_TYPE, type DownloadsManifest } from "../contract/downloads.ts";
import { CONTENT_TYPES } from "../contract/headers.ts";
import { errorResponses, ETAG_HEADER, headerRef, IF_NONE_MATCH, mime, schemaRef, type Json } from "./openapi-components.ts";

/** The whole-dataset downloads in the OpenAPI document: the manifest and the files it lists. */

const DOWNLOADS_TAG = "Downloads";

export function downloadsPaths(manifest: DownloadsManifest): Record<string, Json> {
  const examplesOf = (files: readonly string[]) => Object.fromEntries(files.slice(0, 4).map((file) => [file.replace(/[^a-z0-9]+/g, "-"), { value: file }]));
  const datasets = manifest.files.filter((f) => f.filter === undefined).map((f) => f.path.slice(DOWNLOADS_PREFIX.length));
  const views = manifest.files.filter((f) => f.filter !== undefined).map((f) => f.path.slice(DOWNLOADS_PREFIX.length));
  // A spread of real files: a JSON and a CSV file, a part and a gzip copy where there are some.
  const pick = (files: readonly string[]) => [...new Set([files.find((f) => f.endsWith(".json")), files.find((f) => f.endsWith(".csv")), files.find((f) => f.includes(".part-")), files.find((f) => f.endsWith(".gz"))])].filter((f) => f !== undefined);
  const fileParameter = (name: string, description: string, pattern: string, files: readonly string[]) => ({
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
          "200": { description: "The manifest.", headers: { [ETAG_HEADER]: headerRef(ETAG_HEADER) }, content: { [mime(CONTENT_TYPES.json)]: { schema: schemaRef("DownloadsManifest") } } },
          ...errorResponses(false),
        },
      },
    },
    [`${DOWNLOADS_PREFIX}{file}`]: {
      get: fileOperation("getDownloadFile", "A whole dataset, or one part of it", [fileParameter("file", "A dataset file as the manifest lists it: `{resource}.json`, `.csv`, `{resource}.part-{n}.…` for a part, `… .gz` for a gzip copy.", "^[a-z0-9.]+(\\.part-[0-9]+)?\\.(json|csv)(\\.gz)?$", datasets)]),
    },
    [`${DOWNLOADS_PREFIX}{resource}/{file}`]: {
      get: fileOperation("getDownloadViewFile", "One view of a dataset, complete (e.g. one locality's streets)", [
        { name: "resource", in: "path", required: true, description: "The dataset, e.g. de.streets.", schema: { type: "string", pattern: "^[a-z0-9.]+$" }, ...(viewResource === undefined ? {} : { examples: { [viewResource.replace(/[^a-z0-9]+/g, "-")]: { value: viewResource } } }) },
        fileParameter("file", "The view's slug and format, as the manifest lists it (with its filter).", "^[a-z0-9_-]+\\.(json|csv)(\\.gz)?$", views.map((v) => v.slice(v.indexOf("/") + 1))),
      ]),
    },
  };
}

function fileOperation(operationId: string, summary: string, parameters: readonly Json[]): Json {
  return {
    operationId,
    summary,
    description: "Served as it is, with its media type; the records are those of the API in its order, in the same JSON shape and CSV columns. A file not in the manifest is a 404.",
    tags: [DOWNLOADS_TAG],
    parameters: [...parameters, { $ref: `#/components/parameters/${IF_NONE_MATCH}` }],
    responses: {
      "200": {
        description: "The file.",
        headers: { [ETAG_HEADER]: headerRef(ETAG_HEADER) },
        content: {
          [mime(CONTENT_TYPES.json)]: { schema: { type: "array", description: "The records, as the endpoint the manifest names answers them.", items: { type: "object" } } },
          [mime(CONTENT_TYPES.csv)]: { schema: { type: "string", description: "RFC 4180 CSV with a header row; a value starting with =, +, -, @, tab or carriage return gets a leading ' (formula injection)." } },
          [GZIP_CONTENT_TYPE]: { schema: { type: "string", contentMediaType: GZIP_CONTENT_TYPE, description: "A gzip copy of the file of the same name without .gz." } },
        },
      },
      ...errorResponses(false),
    },
  };
}

/** The manifest's schemas (`DownloadsManifest` in contract/downloads.ts). */
export function downloadsSchemas(): Record<string, Json> {
  const text = (description: string) => ({ type: "string", description });
  const count = (description: string) => ({ type: "integer", minimum: 0, description });
  return {
    DownloadCredit: {
      type: "object",
      title: "DownloadCredit",
      description: "Where a file's records come from, and how to attribute them.",
      required: ["source", "attribution", "licence", "asOf"],
      additionalProperties: false,
      properties: { source: text("The publisher's dataset."), attribution: text("The attribution to show with the data."), licence: text("The licence."), licenceUrl: { type: "string", format: "uri" }, asOf: text("The date of the data.") },
    },
    DownloadFile: {
      type: "object",
      title: "DownloadFile",
      description: "One download file.",
      required: ["path", "mediaType", "bytes", "sha256", "records", "endpoint", "format", "credits"],
      additionalProperties: false,
      properties: {
        path: text("The file's path on this server."),
        mediaType: text("Its Content-Type."),
        bytes: count("Its size in bytes."),
        sha256: { type: "string", pattern: "^[0-9a-f]{64}$", description: "The SHA-256 of its bytes, in hex." },
        records: count("The records it holds."),
        endpoint: text("The endpoint whose records these are."),
        filter: { type: "object", description: "For one view's file: the filter that selects it, e.g. {\"locality\": \"Berlin\"}.", additionalProperties: { type: "string" } },
        format: { type: "string", enum: ["json", "csv"] },
        part: { type: "integer", minimum: 1, description: "For a dataset in parts: this part's number." },
        parts: { type: "integer", minimum: 2, description: "For a dataset in parts: how many there are." },
        gzipOf: text("For a gzip copy: the file it compresses."),
        credits: { type: "array", items: schemaRef("DownloadCredit") },
      },
    },
    DownloadsManifest: {
      type: "object",
      title: "DownloadsManifest",
      description: "Every download file, when the data was built, from which sources, and what the joins of the sources made of their rows.",
      required: ["builtAt", "files", "sources", "joins"],
      additionalProperties: false,
      properties: {
        builtAt: { type: "string", format: "date-time", description: "When the data was built." },
        files: { type: "array", items: schemaRef("DownloadFile") },
        sources: { type: "array", description: "Each source file read: its name, location, SHA-256, size and the publisher's Last-Modified.", items: { type: "object" } },
        joins: { type: "array", description: "Per source joined to another: what became of its rows.", items: schemaRef("JoinReport") },
        changeFeed: schemaRef("ChangeFeedEntry"),
      },
    },
    JoinReport: {
      type: "object",
      title: "JoinReport",
      description: "What a join made of one source's rows: every row is joined or skipped, and every skip has a cause (rows = joined + unmatched + ambiguous + the other skips).",
      required: ["source", "joinedTo", "rows", "joined", "unmatched", "ambiguous", "otherSkips", "renamed", "skipped"],
      additionalProperties: false,
      properties: {
        source: text("The source whose rows were joined."),
        joinedTo: text("What they were joined to."),
        rows: count("Rows considered."),
        joined: count("Rows joined."),
        unmatched: count("Rows that match nothing: skipped."),
        ambiguous: count("Rows that match several candidates that cannot be told apart: skipped, never guessed."),
        otherSkips: { type: "object", description: "Rows skipped for other causes, by cause (e.g. duplicate).", additionalProperties: { type: "integer", minimum: 0 } },
        crossDistrict: count("Joins that cross a district boundary the source states: 0 by construction, counted to prove it."),
        renamed: {
          type: "array",
          description: "Joined rows whose name is served under another name.",
          items: { type: "object", required: ["postalCode", "from", "to", "municipalityKey"], additionalProperties: false, properties: { postalCode: text("Postal code."), from: text("The source's name."), to: text("The name served."), municipalityKey: text("The municipality's key."), placedBy: { type: "string", enum: ["seat", "name", "siblings"], description: "A row naming no municipality of its county (a town part), placed in one of the county's municipalities: by its seat's postal code, by the municipality's name within the row's, or by the other places of its postal code." } } },
        },
        skipped: {
          type: "array",
          description: "The unmatched and ambiguous rows themselves, where a row has more to it than a key.",
          items: {
            type: "object",
            required: ["postalCode", "name", "county", "cause", "detail"],
            additionalProperties: false,
            properties: { postalCode: text("Postal code."), name: text("The source's name."), county: text("The source's county."), cause: { type: "string", enum: ["unmatched", "ambiguous"] }, detail: text("Why, in a phrase.") },
          },
        },
      },
    },
  };
}

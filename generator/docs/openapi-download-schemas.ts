import { schemaRef, type Json } from "./openapi-components.ts";

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
      properties: {
        source: text("The publisher's dataset."),
        attribution: text("The attribution to show with the data."),
        licence: text("The licence."),
        licenceUrl: { type: "string", format: "uri" },
        asOf: text("The date of the data."),
      },
    },
    DownloadFile: {
      type: "object",
      title: "DownloadFile",
      description: "One download file.",
      required: [
        "path",
        "mediaType",
        "bytes",
        "sha256",
        "records",
        "endpoint",
        "format",
        "credits",
      ],
      additionalProperties: false,
      properties: {
        path: text("The file's path on this server."),
        mediaType: text("Its Content-Type."),
        bytes: count("Its size in bytes."),
        sha256: {
          type: "string",
          pattern: "^[0-9a-f]{64}$",
          description: "The SHA-256 of its bytes, in hex.",
        },
        records: count("The records it holds."),
        endpoint: text("The endpoint whose records these are."),
        filter: {
          type: "object",
          description:
            'For one view\'s file: the filter that selects it, e.g. {"locality": "Berlin"}.',
          additionalProperties: { type: "string" },
        },
        format: { type: "string", enum: ["json", "csv"] },
        part: {
          type: "integer",
          minimum: 1,
          description: "For a dataset in parts: this part's number.",
        },
        parts: {
          type: "integer",
          minimum: 2,
          description: "For a dataset in parts: how many there are.",
        },
        gzipOf: text("For a gzip copy: the file it compresses."),
        credits: { type: "array", items: schemaRef("DownloadCredit") },
      },
    },
    DownloadsManifest: {
      type: "object",
      title: "DownloadsManifest",
      description:
        "Every download file, when the data was built, from which sources, and what the joins of the sources made of their rows.",
      required: ["builtAt", "files", "sources", "joins"],
      additionalProperties: false,
      properties: {
        builtAt: { type: "string", format: "date-time", description: "When the data was built." },
        files: { type: "array", items: schemaRef("DownloadFile") },
        sources: {
          type: "array",
          description:
            "Each source file read: its name, location, SHA-256, size and the publisher's Last-Modified.",
          items: { type: "object" },
        },
        joins: {
          type: "array",
          description: "Per source joined to another: what became of its rows.",
          items: schemaRef("JoinReport"),
        },
        changeFeed: schemaRef("ChangeFeedEntry"),
      },
    },
    JoinReport: {
      type: "object",
      title: "JoinReport",
      description:
        "What a join made of one source's rows: every row is joined or skipped, and every skip has a cause (rows = joined + unmatched + ambiguous + the other skips).",
      required: [
        "source",
        "joinedTo",
        "rows",
        "joined",
        "unmatched",
        "ambiguous",
        "otherSkips",
        "renamed",
        "skipped",
      ],
      additionalProperties: false,
      properties: {
        source: text("The source whose rows were joined."),
        joinedTo: text("What they were joined to."),
        rows: count("Rows considered."),
        joined: count("Rows joined."),
        unmatched: count("Rows that match nothing: skipped."),
        ambiguous: count(
          "Rows that match several candidates that cannot be told apart: skipped, never guessed.",
        ),
        otherSkips: {
          type: "object",
          description: "Rows skipped for other causes, by cause (e.g. duplicate).",
          additionalProperties: { type: "integer", minimum: 0 },
        },
        crossDistrict: count(
          "Joins that cross a district boundary the source states: 0 by construction, counted to prove it.",
        ),
        renamed: {
          type: "array",
          description: "Joined rows whose name is served under another name.",
          items: {
            type: "object",
            required: ["postalCode", "from", "to", "municipalityKey"],
            additionalProperties: false,
            properties: {
              postalCode: text("Postal code."),
              from: text("The source's name."),
              to: text("The name served."),
              municipalityKey: text("The municipality's key."),
              placedBy: {
                type: "string",
                enum: ["seat", "name", "siblings"],
                description:
                  "A row naming no municipality of its county (a town part), placed in one of the county's municipalities: by its seat's postal code, by the municipality's name within the row's, or by the other places of its postal code.",
              },
            },
          },
        },
        skipped: {
          type: "array",
          description:
            "The unmatched and ambiguous rows themselves, where a row has more to it than a key.",
          items: {
            type: "object",
            required: ["postalCode", "name", "county", "cause", "detail"],
            additionalProperties: false,
            properties: {
              postalCode: text("Postal code."),
              name: text("The source's name."),
              county: text("The source's county."),
              cause: { type: "string", enum: ["unmatched", "ambiguous"] },
              detail: text("Why, in a phrase."),
            },
          },
        },
      },
    },
  };
}

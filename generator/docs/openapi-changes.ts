import { CHANGE_FEED, CHANGES_PREFIX, CSV_CHANGE_MARKS, FEED_DAYS } from "../contract/changes.ts";
import { IDENTITY_IN_WORDS } from "../contract/record-identity.ts";
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

/** The change feed in the OpenAPI document: the feed and the change files it lists (contract/changes.ts). */

const TAG = "Downloads";

export function changesPaths(): Record<string, Json> {
  const ok = (description: string, content: Record<string, Json>) => ({
    "200": { description, headers: { [ETAG_HEADER]: headerRef(ETAG_HEADER) }, content },
    ...errorResponses(false),
  });
  return {
    [CHANGE_FEED]: {
      get: {
        operationId: "getChangeFeed",
        summary: "The change feed",
        description: `The builds of the last ${FEED_DAYS} days, newest first, each with the change files of the resources whose records changed since the build before it (\`since\`), their counts and SHA-256. A copy of the build of time T applies, oldest first, the change files of the build whose \`since\` is exactly T and of each newer build (each one's \`since\` the \`builtAt\` of the one before); when no build's \`since\` is T, the feed no longer reaches the copy, which downloads the datasets again. \`npm run sync\` does this for a SQLite copy. A build without a predecessor publishes an empty feed (\`predecessor\` null, a \`note\` saying so).`,
        tags: [TAG],
        parameters: [{ $ref: `#/components/parameters/${IF_NONE_MATCH}` }],
        responses: ok("The feed.", {
          [mime(CONTENT_TYPES.json)]: { schema: schemaRef("ChangeFeed") },
        }),
      },
    },
    [`${CHANGES_PREFIX}{build}/{file}`]: {
      get: {
        operationId: "getChangeFile",
        summary: "One build's changes to one dataset",
        description: `The records of one resource added, removed and changed since the build before, as the feed lists them. JSON: an array of \`{"change":"removed","old":{…}}\`, \`{"change":"changed","old":{…},"new":{…}}\`, \`{"change":"added","new":{…}}\`, the records in the download's shape. CSV: the download's columns after a first column \`Change\` (${CSV_CHANGE_MARKS.map((m) => `\`${m}\``).join(", ")}); a changed record is a \`changed-from\` row with its old values, then a \`changed-to\` row with its new ones. A record is known by its identity (${IDENTITY_IN_WORDS}): a renamed street is removed and added.`,
        tags: [TAG],
        parameters: [
          {
            name: "build",
            in: "path",
            required: true,
            description: "The build time, UTC, as `YYYYMMDD-HHMMSS`.",
            schema: { type: "string", pattern: "^[0-9]{8}-[0-9]{6}$" },
          },
          {
            name: "file",
            in: "path",
            required: true,
            description: "The resource and format, e.g. `de.streets.csv`.",
            schema: { type: "string", pattern: "^[a-z0-9.]+\\.(json|csv)$" },
          },
          { $ref: `#/components/parameters/${IF_NONE_MATCH}` },
        ],
        responses: ok("The changes.", {
          [mime(CONTENT_TYPES.json)]: {
            schema: { type: "array", items: schemaRef("RecordChange") },
          },
          [mime(CONTENT_TYPES.csv)]: {
            schema: {
              type: "string",
              description: "RFC 4180 CSV: `Change` and the download's columns.",
            },
          },
        }),
      },
    },
  };
}

export function changesSchemas(): Record<string, Json> {
  const text = (description: string) => ({ type: "string", description });
  const count = (description: string) => ({ type: "integer", minimum: 0, description });
  const time = (description: string) => ({ type: "string", format: "date-time", description });
  const sha256 = {
    type: "string",
    pattern: "^[0-9a-f]{64}$",
    description: "The SHA-256 of its bytes, in hex.",
  };
  return {
    ChangeFeed: {
      type: "object",
      title: "ChangeFeed",
      description: "The builds of the last days and what each changed.",
      required: ["builtAt", "predecessor", "note", "days", "builds"],
      additionalProperties: false,
      properties: {
        builtAt: time("The build that wrote the feed."),
        predecessor: {
          type: ["string", "null"],
          format: "date-time",
          description:
            "The build it was compared with; null when there was none (then builds is empty).",
        },
        note: text("Why the feed is as it is."),
        days: count("How many days of builds the feed keeps."),
        builds: { type: "array", items: schemaRef("FeedBuild") },
      },
    },
    FeedBuild: {
      type: "object",
      title: "FeedBuild",
      description:
        "One build: what changed between since and builtAt. A resource not listed did not change.",
      required: ["builtAt", "since", "files"],
      additionalProperties: false,
      properties: {
        builtAt: time("The build."),
        since: time("The build before it."),
        files: { type: "array", items: schemaRef("ChangeFile") },
      },
    },
    ChangeFile: {
      type: "object",
      title: "ChangeFile",
      description: "One build's changes to one resource in one format.",
      required: [
        "resource",
        "endpoint",
        "format",
        "path",
        "bytes",
        "sha256",
        "added",
        "removed",
        "changed",
      ],
      additionalProperties: false,
      properties: {
        resource: text("The dataset, as in the downloads' file names."),
        endpoint: text("The endpoint whose records these are."),
        format: { type: "string", enum: ["json", "csv"] },
        path: text(
          "The file's path on this server; resources with the same changes in one build (the same records under other parents) share one file.",
        ),
        bytes: count("Its size in bytes."),
        sha256,
        added: count("Records added."),
        removed: count("Records removed."),
        changed: count("Records changed."),
      },
    },
    RecordChange: {
      type: "object",
      title: "RecordChange",
      description:
        "One record's change: old is the record as it was (removed, changed), new as it is (added, changed).",
      required: ["change"],
      additionalProperties: false,
      properties: {
        change: { type: "string", enum: ["added", "removed", "changed"] },
        old: { type: "object" },
        new: { type: "object" },
      },
    },
    ChangeFeedEntry: {
      type: "object",
      title: "ChangeFeedEntry",
      description: "The change feed, as the downloads manifest lists it.",
      required: ["path", "bytes", "sha256", "predecessor", "builds"],
      additionalProperties: false,
      properties: {
        path: text("The feed's path."),
        bytes: count("Its size in bytes."),
        sha256,
        predecessor: {
          type: ["string", "null"],
          format: "date-time",
          description: "The build this one was compared with.",
        },
        builds: count("Builds the feed lists."),
      },
    },
  };
}

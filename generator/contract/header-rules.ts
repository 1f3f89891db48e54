import { GZIP_CONTENT_TYPE } from "./downloads.ts";
import { CONTENT_TYPES, PAGING_HEADERS } from "./headers.ts";
import { datasetPath, DOWNLOADS_PREFIX, gzipPath, listPath, pagePathPattern } from "./layout.ts";
import { FORMATS } from "./query.ts";

/**
 * The `_headers` rules the build appends for its own files, their patterns made from layout.ts.
 * Placeholder names are chosen so that none is a prefix of another (a rule with such names is
 * dropped silently by the CDN).
 */
const PAGE_PLACEHOLDERS: Readonly<Record<(typeof PAGING_HEADERS)[number], string>> = {
  "x-page": "num",
  "x-page-size": "size",
  "x-total-count": "total",
  "x-total-pages": "pages",
};

/** Attach the paging headers and the content type to every page file, from its path. */
export function pageHeaderRules(): string {
  return FORMATS.map((format) =>
    [
      pagePathPattern(format, {
        resource: "res",
        slug: "sel",
        total: PAGE_PLACEHOLDERS["x-total-count"],
        pageSize: PAGE_PLACEHOLDERS["x-page-size"],
        pages: PAGE_PLACEHOLDERS["x-total-pages"],
        page: PAGE_PLACEHOLDERS["x-page"],
      }),
      `  Content-Type: ${CONTENT_TYPES[format]}`,
      ...PAGING_HEADERS.map((name) => `  ${name}: :${PAGE_PLACEHOLDERS[name]}`),
    ].join("\n"),
  ).join("\n\n");
}

export function listHeaderRules(): string {
  return FORMATS.map(
    (format) => `${listPath("*", format)}\n  Content-Type: ${CONTENT_TYPES[format]}`,
  ).join("\n\n");
}

/** The downloads: media types, and a file name for a browser's save dialog. */
export function downloadHeaderRules(): string {
  return [
    ...FORMATS.map(
      (format) => `${datasetPath("*", format)}\n  Content-Type: ${CONTENT_TYPES[format]}`,
    ),
    `${gzipPath(`${DOWNLOADS_PREFIX}*`)}\n  Content-Type: ${GZIP_CONTENT_TYPE}\n  Content-Disposition: attachment`,
  ].join("\n\n");
}

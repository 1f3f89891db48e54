import { GZIP_CONTENT_TYPE } from "./downloads.ts";
import { CONTENT_TYPES, PAGING_HEADERS } from "./headers.ts";
import { FORMATS } from "./query.ts";

/**
 * The `_headers` rules the build appends for its own files (the asset layout of address.ts).
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
      `/_p/:res/:sel/:total/:size/:pages/:num.${format}`,
      `  Content-Type: ${CONTENT_TYPES[format]}`,
      ...PAGING_HEADERS.map((name) => `  ${name}: :${PAGE_PLACEHOLDERS[name]}`),
    ].join("\n"),
  ).join("\n\n");
}

export function listHeaderRules(): string {
  return FORMATS.map((format) => `/_l/*.${format}\n  Content-Type: ${CONTENT_TYPES[format]}`).join("\n\n");
}

/** The downloads: media types, and a file name for a browser's save dialog. */
export function downloadHeaderRules(): string {
  return [
    ...FORMATS.map((format) => `/downloads/*.${format}\n  Content-Type: ${CONTENT_TYPES[format]}`),
    `/downloads/*.gz\n  Content-Type: ${GZIP_CONTENT_TYPE}\n  Content-Disposition: attachment`,
  ].join("\n\n");
}

import { createHash } from "node:crypto";
import { DOCS_ROUTES, type DocsFile } from "../contract/address.ts";
import type { DocsSiteInput } from "./input.ts";
import { openApiDocument } from "./openapi.ts";
import { docsPage } from "./page.ts";
import { DOCS_CSS } from "./style.ts";

export interface DocsBuild {
  /** Every docs file of the build, by path (the type requires each one). */
  readonly files: Readonly<Record<DocsFile, string>>;
  /** `_headers` rules for the docs files: content types, and the page's own CSP. */
  readonly headerRules: string;
}

/** The docs page, its script and the OpenAPI document, all from the resource definitions. */
export function buildDocs(input: DocsSiteInput): DocsBuild {
  return {
    files: {
      "/index.html": docsPage(input, DOCS_CSS),
      "/docs.js": input.script,
      "/openapi.json": `${JSON.stringify(openApiDocument(input), null, 2)}\n`,
    },
    headerRules: docsHeaderRules(DOCS_CSS),
  };
}

/** The docs page's policy: its own script, its inline stylesheet by hash, fetch to its own origin. */
export function docsContentSecurityPolicy(css: string): string {
  const hash = createHash("sha256").update(css, "utf8").digest("base64");
  return [
    "default-src 'none'",
    "script-src 'self'",
    `style-src 'sha256-${hash}'`,
    "connect-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/**
 * The catch-all rule's CSP (`default-src 'none'`) would block the page's script and style, and the
 * CDN joins a header set by two matching rules with a comma: the page's rule detaches it first.
 * The rules are per public path: the CDN serves `/` as the page too (`_redirects`), and matches
 * the rules against the path requested.
 */
function docsHeaderRules(css: string): string {
  const rules: Readonly<Record<DocsFile, readonly string[]>> = {
    "/index.html": [
      "! Content-Security-Policy",
      `Content-Security-Policy: ${docsContentSecurityPolicy(css)}`,
      "Content-Type: text/html; charset=utf-8",
    ],
    "/docs.js": ["Content-Type: text/javascript; charset=utf-8"],
    "/openapi.json": ["Content-Type: application/json; charset=utf-8"],
  };
  return [...DOCS_ROUTES]
    .map(([path, file]) => [path, ...rules[file].map((line) => `  ${line}`)].join("\n"))
    .join("\n\n");
}

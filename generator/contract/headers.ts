import { pageCount } from "./paging.ts";
import type { Format } from "./query.ts";

/** The CDN's limits for a `_headers` file. */
export const MAX_HEADER_RULES = 100;
export const MAX_HEADER_LINE = 2000;

export const CONTENT_TYPES: Readonly<Record<Format, string>> = {
  json: "application/json; charset=utf-8",
  csv: "text/csv; charset=utf-8",
};
export const PROBLEM_CONTENT_TYPE = "application/problem+json; charset=utf-8";

export const PAGING_HEADERS = ["x-page", "x-page-size", "x-total-count", "x-total-pages"] as const;

/** The methods every path answers (`Allow` on a 405, and what a CORS preflight allows). */
export const ALLOWED_METHODS = "GET, HEAD, OPTIONS";

/**
 * The answer to every CORS preflight, whatever the path: the request headers a read-only client
 * sends besides the safelisted ones (content negotiation, revalidation, cache control), so that a
 * browser's fetch with `If-None-Match` reaches the API and its answer (a 304, or a 404 problem)
 * reaches the script. The headers a script may read are exposed by the catch-all rule of `_headers`.
 */
export const CORS_PREFLIGHT_HEADERS: readonly (readonly [string, string])[] = [
  ["Access-Control-Allow-Methods", ALLOWED_METHODS],
  [
    "Access-Control-Allow-Headers",
    "Accept, Accept-Language, Cache-Control, If-Modified-Since, If-None-Match, Pragma",
  ],
  ["Access-Control-Max-Age", "86400"],
];

export interface HeaderRule {
  readonly pattern: string;
  readonly headers: readonly (readonly [name: string, value: string])[];
}

export type HeadersParse =
  { ok: true; rules: HeaderRule[] } | { ok: false; line: number; message: string };

/** Parses a `_headers` file: a URL pattern line, then indented `Name: value` lines. */
export function parseHeadersFile(text: string): HeadersParse {
  const rules: { pattern: string; headers: [string, string][] }[] = [];
  const lines = text.split(/\r?\n/);
  for (const [index, line] of lines.entries()) {
    const number = index + 1;
    if (line.length > MAX_HEADER_LINE)
      return { ok: false, line: number, message: `longer than ${MAX_HEADER_LINE} characters` };
    const content = line.trim();
    if (content === "" || content.startsWith("#")) continue;
    if (!/^\s/.test(line)) {
      rules.push({ pattern: content, headers: [] });
      continue;
    }
    const rule = rules.at(-1);
    const colon = content.indexOf(":");
    if (rule === undefined)
      return { ok: false, line: number, message: "header line before any URL pattern" };
    if (content.startsWith("!")) continue; // detaching a header only matters to the CDN
    if (colon <= 0)
      return { ok: false, line: number, message: `expected 'Name: value', got '${content}'` };
    rule.headers.push([content.slice(0, colon).trim(), content.slice(colon + 1).trim()]);
  }
  if (rules.length > MAX_HEADER_RULES)
    return {
      ok: false,
      line: lines.length,
      message: `${rules.length} rules, the CDN takes at most ${MAX_HEADER_RULES}`,
    };
  return { ok: true, rules };
}

/** The headers of the catch-all `/*` rule: what every response carries, errors included. */
export function commonHeaders(text: string): readonly (readonly [string, string])[] {
  const parsed = parseHeadersFile(text);
  if (!parsed.ok) throw new Error(`_headers line ${parsed.line}: ${parsed.message}`);
  return parsed.rules.find((rule) => rule.pattern === "/*")?.headers ?? [];
}

export function pagingHeaders(page: number, pageSize: number, total: number): [string, string][] {
  return [
    ["x-page", String(page)],
    ["x-page-size", String(pageSize)],
    ["x-total-count", String(total)],
    ["x-total-pages", String(pageCount(total, pageSize))],
  ];
}

/** A question's 32-bit FNV-1a hash as eight hex digits: the part of a search or match page's ETag that names the question. */
export function fnv(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, "0");
}

/** A page's ETag: the view's content hash, the page and the format (a strong validator: the bytes follow from these). */
export function pageEtag(viewHash: string, pageSize: number, page: number, format: Format): string {
  return `"${viewHash}.${pageSize}.${page}.${format}"`;
}

import type { AssetRules } from "./asset-rules.ts";
import type { FileIndex } from "./assets.ts";
import type { HeaderMap } from "./wire.ts";

/**
 * Cloudflare's asset worker (workers-shared, asset-worker/src/handler.ts) for this server, with
 * `html_handling: "none"` and no `not_found_handling` (what wrangler.jsonc configures; the server
 * refuses other settings): `_redirects` first (a 200 rule serves another file under the path),
 * the path decoded segment by segment and its repeated slashes merged before the file is looked
 * up, a 307 to the canonical spelling when the request spelt it otherwise, 405 for methods other
 * than GET and HEAD, the ETag and a 304 on a matching `If-None-Match`, and the `_headers` rules
 * on every answer. What it decides, not how the bytes travel (http.ts and binding.ts send them).
 */

export interface AssetAnswer {
  readonly status: number;
  readonly headers: HeaderMap;
  /** The file whose bytes are the body (a 200 to GET), a path under the build directory. */
  readonly file?: string;
  /** That file's size, as the build lists it. */
  readonly fileBytes?: number;
}

/** What the asset worker reads of a request. */
export interface AssetRequest {
  readonly method: string;
  readonly url: URL;
  header(name: string): string | undefined;
}

/** The browser cache policy the asset worker sets before `_headers` (which overrides it here). */
const CACHE_CONTROL_BROWSER = "public, max-age=0, must-revalidate";

/**
 * A path that decoding leaves as it is and encoding spells the same (characters
 * `encodeURIComponent` keeps, no empty segment): the common case, which needs neither.
 */
const PLAIN_PATH = /^(?:\/[\w.!~*'()-]+)*\/?$/;

function decodePath(pathname: string): string {
  return pathname
    .split("/")
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        return segment;
      }
    })
    .join("/")
    .replace(/\/+/g, "/");
}

function encodePath(pathname: string): string {
  return pathname
    .split("/")
    .map((segment) => {
      try {
        return encodeURIComponent(segment);
      } catch {
        return segment;
      }
    })
    .join("/");
}

/** The asset's answer, or undefined when there is none (the router then asks the Worker). */
export function answerAsset(
  files: FileIndex,
  rules: AssetRules,
  request: AssetRequest,
): AssetAnswer | undefined {
  const { url } = request;
  const answer = decide(files, rules, request);
  if (answer === undefined) return undefined;
  rules.applyHeaders(url.hostname, url.pathname, answer.headers);
  return answer;
}

function decide(
  files: FileIndex,
  rules: AssetRules,
  request: AssetRequest,
): AssetAnswer | undefined {
  const { url } = request;
  let pathname = url.pathname;
  let proxied = false;
  const redirect = rules.redirect(url.host, pathname);
  if (redirect !== undefined && redirect.status === 200) {
    pathname = new URL(redirect.to, url).pathname;
    proxied = true;
  } else if (redirect !== undefined) {
    const to = new URL(redirect.to, url);
    const location =
      to.origin === url.origin
        ? `${to.pathname}${to.search || url.search}${to.hash}`
        : `${to.href.slice(0, to.href.length - (to.search.length + to.hash.length))}${to.search || url.search}${to.hash}`;
    const status = [301, 303, 307, 308].includes(redirect.status) ? redirect.status : 302;
    return { status, headers: new Map([["location", location]]) };
  }
  const plain = PLAIN_PATH.test(pathname);
  const decoded = plain ? pathname : decodePath(pathname);
  const file = files.lookup(decoded);
  if (file === undefined) return proxied ? { status: 404, headers: new Map() } : undefined;
  const method = request.method.toUpperCase();
  if (method !== "GET" && method !== "HEAD") return { status: 405, headers: new Map() };
  const encoded = plain ? pathname : encodePath(decoded);
  if (encoded !== pathname)
    return { status: 307, headers: new Map([["location", `${encoded}${url.search}`]]) };
  const etag = `"${file.etag}"`;
  const headers: HeaderMap = new Map([["etag", etag]]);
  if (file.type !== undefined) headers.set("content-type", file.type);
  if (request.header("authorization") === undefined && request.header("range") === undefined)
    headers.set("cache-control", CACHE_CONTROL_BROWSER);
  headers.set("cf-cache-status", "HIT");
  const condition = request.header("if-none-match") ?? "";
  if (condition === etag || condition === `W/${etag}`) return { status: 304, headers };
  return method === "HEAD"
    ? { status: 200, headers }
    : { status: 200, headers, file: decoded, fileBytes: file.bytes };
}

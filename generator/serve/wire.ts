/**
 * Response header lines as workerd puts them on the wire, so that the server and `wrangler dev`
 * answer alike byte for byte (runtimes.test.ts): the names workerd knows (its HTTP library's own,
 * then the HPACK static table's, then `CF-Cache-Status`) first, in that order and spelling; every
 * other header after them, lower-cased, in alphabetical order (the order a `Headers` object
 * iterates in).
 */
const KNOWN = [
  "Connection",
  "Keep-Alive",
  "Content-Length",
  "Transfer-Encoding",
  "Host",
  "Date",
  "Location",
  "Content-Type",
  "Accept-Charset",
  "Accept-Encoding",
  "Accept-Language",
  "Accept-Ranges",
  "Accept",
  "Access-Control-Allow-Origin",
  "Age",
  "Allow",
  "Authorization",
  "Cache-Control",
  "Content-Disposition",
  "Content-Encoding",
  "Content-Language",
  "Content-Location",
  "Content-Range",
  "Cookie",
  "ETag",
  "Expect",
  "Expires",
  "From",
  "If-Match",
  "If-Modified-Since",
  "If-None-Match",
  "If-Range",
  "If-Unmodified-Since",
  "Last-Modified",
  "Link",
  "Max-Forwards",
  "Proxy-Authenticate",
  "Proxy-Authorization",
  "Range",
  "Referer",
  "Refresh",
  "Retry-After",
  "Server",
  "Set-Cookie",
  "Strict-Transport-Security",
  "User-Agent",
  "Vary",
  "Via",
  "WWW-Authenticate",
  "CF-Cache-Status",
];
const RANK = new Map(KNOWN.map((name, i) => [name.toLowerCase(), i]));
const SPELLING = new Map(KNOWN.map((name) => [name.toLowerCase(), name]));

/** A response's headers as lower-case name → value, in any order. */
export type HeaderMap = Map<string, string>;

/** The flat [name, value, name, value, …] list node:http writes as given, in workerd's order. */
export function wireHeaders(headers: HeaderMap): string[] {
  let key = "";
  for (const name of headers.keys()) key += `${name}\n`;
  let names = ORDERS.get(key);
  if (names === undefined) {
    names = [...headers.keys()].sort((a, b) => {
      const ra = RANK.get(a) ?? KNOWN.length;
      const rb = RANK.get(b) ?? KNOWN.length;
      return ra !== rb ? ra - rb : a < b ? -1 : a > b ? 1 : 0;
    });
    if (ORDERS.size >= ORDERS_KEPT) ORDERS.clear();
    ORDERS.set(key, names);
  }
  const flat: string[] = [];
  for (const name of names) flat.push(SPELLING.get(name) ?? name, headers.get(name) ?? "");
  return flat;
}

/**
 * The wire order of the header name lists seen lately, by the names in the order they were set:
 * the answers of one kind always set the same names in the same order, so each is sorted once.
 */
const ORDERS = new Map<string, readonly string[]>();
const ORDERS_KEPT = 256;

/** A fetch `Headers` (the Worker's response) as a header map. */
export function headerMapOf(headers: Headers): HeaderMap {
  const map: HeaderMap = new Map();
  headers.forEach((value, name) => map.set(name, value));
  return map;
}

/**
 * Query keys a source URL keeps where it is published (the downloads manifest, `_build.json`, the
 * build's output and messages): the parts of the publishers' own URLs that say which file was read,
 * none of them a secret. Every other key goes, as do the user and password, and the fragment: an
 * operator's `--source NAME=https://user:secret@host/file?access_token=…` must not be published.
 */
export const PUBLIC_QUERY_KEYS: readonly string[] = [
  "date", // the day of the BFS snapshot (cantons, districts, communes)
  "__blob", // Destatis serves a file, rather than its page, for __blob=publicationFile
];

/** A source URL as it may be published: no userinfo, no fragment, only the public query keys. */
export function publicUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url.replace(/[?#].*$/s, "").replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, "$1");
  }
  // The kept pairs are taken as written: URLSearchParams would re-encode them.
  const kept = parsed.search
    .slice(1)
    .split("&")
    .filter((pair) => PUBLIC_QUERY_KEYS.includes(queryKey(pair)));
  return `${parsed.origin}${parsed.pathname}${kept.length === 0 ? "" : `?${kept.join("&")}`}`;
}

function queryKey(pair: string): string {
  const key = pair.split("=")[0] ?? "";
  try {
    return decodeURIComponent(key.replaceAll("+", " "));
  } catch {
    return key;
  }
}

/** `text` with every URL in it in its public form: a message that quotes a source's URL (eleventy-fetch's do, with the password). */
export function withPublicUrls(text: string): string {
  return text.replace(/\bhttps?:\/\/[^\s"'<>]*[^\s"'<>.,:;)\]]/gi, publicUrl);
}

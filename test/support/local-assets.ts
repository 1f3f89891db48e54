import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { urlOf, type Assets } from "../../generator/edge/assets.ts";
import { parseHeadersFile } from "../../generator/contract/headers.ts";

/**
 * An in-process stand-in for the static-assets binding, for tests that need more requests than
 * wrangler dev can take quickly: serves files of a build and applies its `_headers` rules as the
 * CDN documents them (every matching rule; `:name` placeholders and `*` substituted into values).
 * The HTTP tests through wrangler dev check that the real runtime agrees.
 */
export function localAssets(dir: string): Assets {
  return assetsFrom(readFileSync(join(dir, "_headers"), "utf8"), (path) => {
    const file = join(dir, path);
    return file.startsWith(dir) && existsSync(file) && statSync(file).isFile()
      ? readFileSync(file)
      : null;
  });
}

/** The same over a build in memory (a `MemorySink`'s files). */
export function memoryAssets(files: ReadonlyMap<string, string | Uint8Array>): Assets {
  const headers = files.get("/_headers") ?? "";
  return assetsFrom(
    typeof headers === "string" ? headers : Buffer.from(headers).toString("utf8"),
    (path) => {
      const data = files.get(path);
      return data === undefined ? null : Buffer.from(data);
    },
  );
}

function assetsFrom(headersText: string, read: (path: string) => Buffer | null): Assets {
  const parsed = parseHeadersFile(headersText);
  if (!parsed.ok) throw new Error(parsed.message);
  const rules = parsed.rules.map((rule) => ({
    regex: new RegExp(
      `^${rule.pattern
        .replace(/[.+?^${}()|[\]\\]/g, "\\$&")
        .replace(/:([A-Za-z]\w*)/g, "(?<$1>[^/]+)")
        .replace(/\*/, "(?<splat>.*)")}$`,
    ),
    headers: rule.headers,
  }));
  const cache = new Map<string, Buffer | null>();
  return {
    fetch: async (input) => {
      const path = decodeURIComponent(new URL(urlOf(input)).pathname);
      let body = cache.get(path);
      if (body === undefined) {
        body = read(path);
        cache.set(path, body);
      }
      const headers = new Headers();
      for (const rule of rules) {
        const match = rule.regex.exec(path);
        if (match === null) continue;
        for (const [name, value] of rule.headers)
          headers.set(
            name.toLowerCase(),
            value.replace(/:([A-Za-z]\w*)/g, (all, key: string) => match.groups?.[key] ?? all),
          );
      }
      if (body === null) return new Response(null, { status: 404, headers });
      // As the CDN: a whole file is sent with its length.
      headers.set("content-length", String(body.byteLength));
      return new Response(new Uint8Array(body), { status: 200, headers });
    },
  };
}

/**
 * The asset binding of the street-search benches: a build's files read from disk once, every fetch
 * and every index byte (`/_s/…`) counted. The small processes (bench/search-cold.ts,
 * bench/search-warm.ts, bench/fresh-isolate-child.ts) answer index files as plain objects (see
 * indexFile); bench/search.ts's own process and bench/search-refusals.ts as Node's Responses, as
 * they always have.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { urlOf, type Assets } from "../generator/edge/assets.ts";

export interface CountedAssets {
  readonly assets: Assets;
  /** Fetches and index bytes since the last reset. */
  readonly counts: () => { fetches: number; bytes: number };
  readonly reset: () => void;
  /** The distinct paths fetched since the last reset, in the order first fetched. */
  readonly fetched: () => string[];
  /** Reads these files into memory now, so that fetching them later touches no disk. */
  readonly preload: (paths: Iterable<string>) => void;
  /** Fetches since the last reset of a file that was not in memory yet (read from disk inside the fetch). */
  readonly misses: () => number;
}

/** The path of an absolute URL the Worker asked for (`${origin}${path}`), without parsing a URL: the stand-in's own work is not the Worker's. */
function pathOf(url: string): string {
  const path = url.slice(url.indexOf("/", url.indexOf("//") + 2));
  const query = path.indexOf("?");
  return query < 0 ? path : path.slice(0, query);
}

/**
 * `indexFiles`: index files (`/_s/…`) as plain objects or as Node's Responses. `otherFiles`: the
 * rest as Node's Responses, or "light": responses whose whole-body reads (`arrayBuffer`, `bytes`,
 * `text`, `json`) copy the bytes once without undici, and whose Response (headers, a body stream
 * for the Worker to pass on) is made only when asked for (see lightResponse).
 */
export function buildAssets(
  out: string,
  indexFiles: "plain" | "response" = "plain",
  otherFiles: "response" | "light" = "response",
): CountedAssets {
  const files = new Map<string, Uint8Array | null>();
  let [fetches, indexBytes, misses] = [0, 0, 0];
  let paths = new Set<string>();
  const read = (path: string) => {
    const file = join(out, decodeURIComponent(path));
    files.set(
      path,
      file.startsWith(out) && existsSync(file) && statSync(file).isFile()
        ? readFileSync(file)
        : null,
    );
  };
  const assets: Assets = {
    fetch: async (input) => {
      const path = pathOf(urlOf(input));
      fetches++;
      paths.add(path);
      if (!files.has(path)) {
        misses++;
        read(path);
      }
      const body = files.get(path);
      if (body === null || body === undefined) return new Response(null, { status: 404 });
      const response = () =>
        otherFiles === "light"
          ? lightResponse(body)
          : new Response(body, { headers: { "content-type": "application/octet-stream" } });
      if (!path.startsWith("/_s/")) return response();
      indexBytes += body.byteLength;
      return indexFiles === "plain" ? indexFile(body) : response();
    },
  };
  return {
    assets,
    counts: () => ({ fetches, bytes: indexBytes }),
    reset: () => {
      [fetches, indexBytes, misses] = [0, 0, 0];
      paths = new Set();
    },
    fetched: () => [...paths],
    preload: (wanted) => {
      for (const path of wanted) if (!files.has(path)) read(path);
    },
    misses: () => misses,
  };
}

/**
 * An index file's response as the Worker reads one (`ok`, then `arrayBuffer()` or `bytes()`, a
 * copy of the bytes). In workerd the binding's Response and its body stream are the runtime's native code;
 * Node's are JavaScript (undici) on this thread: 64 fetches of 4 KB cost 2-4 ms here, as much as
 * the rest of a 60-file page. The copy into the isolate stays charged.
 */
const indexFile = (body: Uint8Array): Response =>
  ({
    ok: true,
    status: 200,
    arrayBuffer: async () => new Uint8Array(body).buffer,
    bytes: async () => new Uint8Array(body),
  }) as unknown as Response;

/**
 * A file's response whose whole-body reads cost what they cost in workerd: one copy of the bytes
 * into the isolate (and the decoding and parsing the Worker asks for). Node's Response is
 * JavaScript (undici) on this thread: making one, with its Headers and body stream, and reading it
 * back cost a first request more than the rest of its work for the route table and a page, where
 * workerd's binding hands over native objects. So the Response (for a page the Worker passes on:
 * its `body` and `headers`) is made only when asked for, from the same bytes.
 */
function lightResponse(bytes: Uint8Array): Response {
  let real: Response | undefined;
  const made = () =>
    (real ??= new Response(
      new ReadableStream<Uint8Array>({
        pull(controller) {
          controller.enqueue(new Uint8Array(bytes));
          controller.close();
        },
      }),
      { headers: { "content-type": "application/octet-stream" } },
    ));
  const text = async () => new TextDecoder().decode(bytes);
  return {
    ok: true,
    status: 200,
    statusText: "",
    get headers() {
      return made().headers;
    },
    get body() {
      return made().body;
    },
    get bodyUsed() {
      return real?.bodyUsed ?? false;
    },
    clone: () => made().clone(),
    arrayBuffer: async () => new Uint8Array(bytes).buffer,
    bytes: async () => new Uint8Array(bytes),
    text,
    json: async () => JSON.parse(await text()) as unknown,
  } as unknown as Response;
}

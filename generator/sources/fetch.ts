import { RemoteAssetCache } from "@11ty/eleventy-fetch";

export interface FetchOptions {
  /** The on-disk cache of downloads. */
  readonly cacheDir: string;
  /** How long a download stays fresh, eleventy-fetch style: `30m`, `12h`, `1d`, `0s` (always fetch). */
  readonly cacheDuration: string;
  /** When a download fails: use an expired cached copy (reported), instead of failing the build. */
  readonly allowStale: boolean;
  readonly timeoutMs: number;
}

export interface Download {
  readonly bytes: Uint8Array;
  /** `network`, a fresh `cache` hit, or a `stale` cached copy standing in for a failed download. */
  readonly origin: "network" | "cache" | "stale";
  /** The publisher's `Last-Modified`, when it sent one. */
  readonly lastModified?: string;
  /** When the cached copy was downloaded (ms since the epoch). */
  readonly fetchedAt: number;
}

export const CACHE_DURATION = /^(\d+[smhdwy]|\*)$/;

/**
 * The only code that touches the network: downloads `url` through eleventy-fetch's disk cache.
 * eleventy-fetch itself quietly returns an expired copy when a download fails; here that happens
 * only with `allowStale`, and the result says so. (eleventy-fetch remembers per process which cache
 * files exist, so a download is seen in the cache by the next build process, not the same one.)
 */
export async function download(url: string, options: FetchOptions): Promise<Download> {
  const cached = asset(url, options, options.cacheDuration);
  if (cached.isCacheValid()) return result(cached.getCachedValue(), "cache", cached.getCachedTimestamp());
  const fresh = asset(url, options, "0s"); // "0s": eleventy-fetch's own stale fallback is off
  try {
    return result(await fresh.fetch(), "network", Date.now());
  } catch (error) {
    const reason = describe(error);
    const stamp = cached.getCachedTimestamp();
    if (!options.allowStale || stamp === undefined) {
      throw new Error(`${reason}${stamp === undefined ? "" : " (an expired cached copy exists: --allow-stale would use it)"}`);
    }
    return result(cached.getCachedValue(), "stale", stamp);
  }
}

function asset(url: string, options: FetchOptions, duration: string): RemoteAssetCache {
  return new RemoteAssetCache(url, options.cacheDir, {
    type: "buffer",
    duration,
    returnType: "response",
    verbose: false,
    fetchOptions: { signal: AbortSignal.timeout(options.timeoutMs), redirect: "follow" },
  });
}

function result(response: { body: Buffer; headers?: Readonly<Record<string, string>> }, origin: Download["origin"], fetchedAt: number | undefined): Download {
  const lastModified = response.headers?.["last-modified"];
  return {
    bytes: new Uint8Array(response.body.buffer, response.body.byteOffset, response.body.byteLength),
    origin,
    fetchedAt: fetchedAt ?? Date.now(),
    ...(lastModified === undefined ? {} : { lastModified }),
  };
}

/** eleventy-fetch's message plus the root cause's code (e.g. ECONNREFUSED) or timeout. */
function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  let cause: unknown = error instanceof Error ? error.cause : undefined;
  for (let depth = 0; cause instanceof Error && depth < 5; depth++) {
    const code = cause.name === "TimeoutError" ? "timed out" : (cause as NodeJS.ErrnoException).code;
    if (code !== undefined) return message.includes(code) ? message : `${message} (${code})`;
    cause = cause.cause;
  }
  return message;
}

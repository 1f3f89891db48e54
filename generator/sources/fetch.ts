import { RemoteAssetCache } from "@11ty/eleventy-fetch";
import { withRootCause } from "./errors.ts";
import { describeBytes, READER_LIMIT_BYTES } from "./limits.ts";
import { publicUrl } from "./public-url.ts";

export interface FetchOptions {
  /** The on-disk cache of downloads. */
  readonly cacheDir: string;
  /** How long a download stays fresh, eleventy-fetch style: `30m`, `12h`, `1d`, `0s` (always fetch). */
  readonly cacheDuration: string;
  /** When a download fails: use an expired cached copy (reported), instead of failing the build. */
  readonly allowStale: boolean;
  readonly timeoutMs: number;
  /** The most bytes one download may have (default: what the readers can take); a larger one is stopped there. */
  readonly maxBytes?: number;
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
  const maxBytes = options.maxBytes ?? READER_LIMIT_BYTES;
  const cached = asset(url, options, options.cacheDuration);
  if (cached.isCacheValid())
    return result(cached.getCachedValue(), "cache", cached.getCachedTimestamp(), maxBytes);
  const fresh = asset(url, options, "0s"); // "0s": eleventy-fetch's own stale fallback is off
  try {
    return result(await fresh.fetch(), "network", Date.now(), maxBytes);
  } catch (error) {
    const tooLarge = causeOf(error, TooLargeError);
    if (tooLarge !== undefined) throw tooLarge; // never replaced by a stale copy: the publisher's file has outgrown the limit
    const reason = withRootCause(error);
    const stamp = cached.getCachedTimestamp();
    if (!options.allowStale || stamp === undefined) {
      throw new Error(
        `${reason}${stamp === undefined ? "" : " (an expired cached copy exists: --allow-stale would use it)"}`,
      );
    }
    return result(cached.getCachedValue(), "stale", stamp, maxBytes);
  }
}

/** A download larger than the limit: stopped there, and never cached. */
export class TooLargeError extends Error {}

/**
 * eleventy-fetch's cache, reading a response body as a stream that stops at `maxBytes` (its own
 * reading takes the whole body into memory first, however large).
 */
class BoundedAssetCache extends RemoteAssetCache {
  constructor(
    url: string,
    cacheDir: string,
    options: ConstructorParameters<typeof RemoteAssetCache>[2],
    private readonly maxBytes: number,
  ) {
    super(url, cacheDir, options);
  }

  override async getResponseValue(response: Response): Promise<Buffer> {
    const tooLarge = (what: string) =>
      new TooLargeError(
        `${what}, more than the limit of ${describeBytes(this.maxBytes)} for one source`,
      );
    const declared = Number(response.headers.get("content-length") ?? Number.NaN);
    if (declared > this.maxBytes) {
      await response.body?.cancel();
      throw tooLarge(`the publisher announces ${describeBytes(declared)}`);
    }
    // With its size announced (and not of a compressed encoding, which fetch decodes), the body is
    // read into one buffer of that size: no second copy at the end.
    const encoded = (response.headers.get("content-encoding") ?? "identity") !== "identity";
    const whole =
      !encoded && Number.isSafeInteger(declared) && declared >= 0
        ? Buffer.allocUnsafe(declared)
        : Buffer.alloc(0);
    let filled = 0;
    const rest: Uint8Array[] = [];
    let received = 0;
    const reader = response.body?.getReader();
    for (
      let read = await reader?.read();
      read !== undefined && !read.done;
      read = await reader?.read()
    ) {
      const chunk = read.value;
      received += chunk.byteLength;
      if (received > this.maxBytes) {
        await reader?.cancel();
        throw tooLarge(`the download was stopped at ${describeBytes(received)}`);
      }
      if (rest.length === 0 && filled + chunk.byteLength <= whole.byteLength) {
        whole.set(chunk, filled);
        filled += chunk.byteLength;
      } else rest.push(chunk);
    }
    return filled === received
      ? whole.subarray(0, filled)
      : Buffer.concat([whole.subarray(0, filled), ...rest], received);
  }
}

function asset(url: string, options: FetchOptions, duration: string): RemoteAssetCache {
  const settings = {
    type: "buffer",
    duration,
    returnType: "response",
    verbose: false,
    fetchOptions: {
      signal: AbortSignal.timeout(options.timeoutMs),
      redirect: "follow",
      // A fresh connection per download, as deployed.ts opens for each read: a build parses for
      // seconds between downloads, and a kept-alive connection the server closes just as the next
      // request goes out fails that download with ECONNRESET.
      headers: { connection: "close" },
    },
  } as const;
  return new BoundedAssetCache(
    url,
    options.cacheDir,
    settings,
    options.maxBytes ?? READER_LIMIT_BYTES,
  );
}

function result(
  response: { body: Buffer; headers?: Readonly<Record<string, string>> },
  origin: Download["origin"],
  fetchedAt: number | undefined,
  maxBytes: number,
): Download {
  // A cached copy from before the limit was lowered is held to it too.
  if (response.body.byteLength > maxBytes)
    throw new TooLargeError(
      `the cached copy is ${describeBytes(response.body.byteLength)}, more than the limit of ${describeBytes(maxBytes)} for one source`,
    );
  const lastModified = response.headers?.["last-modified"];
  return {
    bytes: new Uint8Array(response.body.buffer, response.body.byteOffset, response.body.byteLength),
    origin,
    fetchedAt: fetchedAt ?? Date.now(),
    ...(lastModified === undefined ? {} : { lastModified }),
  };
}

function causeOf<T extends Error>(
  error: unknown,
  type: new (...args: never[]) => T,
): T | undefined {
  let cause = error;
  for (let depth = 0; depth < 5 && cause instanceof Error; depth++, cause = cause.cause)
    if (cause instanceof type) return cause;
  return undefined;
}

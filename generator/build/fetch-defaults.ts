import type { FetchOptions } from "../sources/fetch.ts";

/** How a build fetches and caches downloads unless told otherwise (a module of its own: the CLI reads it without loading the build). */
export const DEFAULT_FETCH: FetchOptions = {
  cacheDir: ".cache/sources",
  cacheDuration: "1d",
  allowStale: false,
  timeoutMs: 120_000,
};

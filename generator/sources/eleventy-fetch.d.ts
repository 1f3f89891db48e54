// The part of @11ty/eleventy-fetch (CommonJS, no types of its own) that generator/sources/fetch.ts uses.
declare module "@11ty/eleventy-fetch" {
  interface RemoteAssetOptions {
    type: "buffer";
    duration: string;
    returnType: "response";
    verbose: boolean;
    fetchOptions: RequestInit;
  }
  interface CachedResponse {
    readonly body: Buffer;
    readonly headers?: Readonly<Record<string, string>>;
    readonly cache: "hit" | "miss";
  }
  export class RemoteAssetCache {
    constructor(source: string, cacheDirectory: string, options: RemoteAssetOptions);
    isCacheValid(duration?: string): boolean;
    getCachedValue(): CachedResponse;
    getCachedTimestamp(): number | undefined;
    fetch(): Promise<CachedResponse>;
    /** Reads a fresh response's body (the cache's hook for its type): a subclass may bound it. */
    getResponseValue(response: Response, type: string): Promise<Buffer>;
  }
}

import { PROBLEM_CONTENT_TYPE } from "../contract/headers.ts";
import type { Problem } from "../contract/problem.ts";
import { exactlyOf } from "./fixed-length.ts";

const encoder = new TextEncoder();

export type HeaderList = readonly (readonly [string, string])[];

/**
 * Makes a response: the runtime's own, or a stand-in for the startup warm-up (warm-up.ts), where
 * workerd allows no response with a body (it would need a request to belong to).
 */
export type MakeResponse = (
  body: Uint8Array | ArrayBuffer | ReadableStream<Uint8Array> | null,
  init: ResponseInit,
) => Response;
const runtimeResponse: MakeResponse = (body, init) => new Response(body, init);

/** Builds responses that carry the common headers; the only place headers are assembled. */
export class ResponseFactory {
  constructor(
    private readonly common: HeaderList,
    private readonly make: MakeResponse = runtimeResponse,
  ) {}

  /** Names are lower-cased, as the asset server sends them, so both kinds of response are identical on the wire. */
  headers(extra: HeaderList): Headers {
    const headers = new Headers();
    for (const [name, value] of this.common) headers.set(name.toLowerCase(), value);
    for (const [name, value] of extra) headers.set(name.toLowerCase(), value);
    return headers;
  }

  /** A response built here. For HEAD the runtime drops the body but keeps its Content-Length. */
  body(status: number, body: string | Uint8Array, extra: HeaderList): Response {
    const headers = this.headers(extra);
    const bytes = typeof body === "string" ? encoder.encode(body) : body;
    headers.set("content-length", String(bytes.byteLength));
    return this.make(bytes, { status, headers });
  }

  /**
   * A streamed response of known length (a download the Worker assembles): sent with its
   * Content-Length, and broken off when the body fails or its length comes out otherwise.
   */
  stream(
    status: number,
    body: ReadableStream<Uint8Array> | null,
    length: number,
    extra: HeaderList,
  ): Response {
    const headers = this.headers(extra);
    headers.set("content-length", String(length));
    return this.make(body === null ? null : exactlyOf(body, length), { status, headers });
  }

  problem(problem: Problem, extra: HeaderList = []): Response {
    return this.body(problem.status, JSON.stringify(problem), [
      ["Content-Type", PROBLEM_CONTENT_TYPE],
      ...extra,
    ]);
  }

  /**
   * An asset response, passed on with its `_headers` headers and our adjustments. For HEAD the body
   * is read to give its Content-Length (the asset's length is not a header but a property of its stream).
   */
  async asset(method: string, asset: Response, extra: HeaderList): Promise<Response> {
    const body = method === "HEAD" ? await asset.arrayBuffer() : asset.body;
    const response = this.make(body, asset);
    if (body instanceof ArrayBuffer)
      response.headers.set("content-length", String(body.byteLength));
    response.headers.delete("cf-cache-status");
    for (const [name, value] of extra) response.headers.set(name.toLowerCase(), value);
    return response;
  }

  /**
   * 304 for an asset, with the asset's own headers: a cache updates the stored response's headers
   * from a 304, so it must carry the same ones (the docs page's CSP, not the catch-all one).
   */
  assetNotModified(asset: Response): Response {
    const headers = new Headers(asset.headers);
    for (const name of ["content-length", "cf-cache-status"]) headers.delete(name);
    return this.make(null, { status: 304, headers });
  }

  /** A response without content (204, 304). */
  empty(status: number, extra: HeaderList): Response {
    return this.make(null, { status, headers: this.headers(extra) });
  }
}

/** Whether the request's `If-None-Match` matches the response's ETag (weak comparison, as for GET). */
export function ifNoneMatch(request: Request, headers: HeaderList): boolean {
  const condition = request.headers.get("If-None-Match");
  const etag = headers.find(([name]) => name === "ETag")?.[1];
  if (condition === null || etag === undefined) return false;
  return (
    condition.trim() === "*" ||
    condition.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag)
  );
}

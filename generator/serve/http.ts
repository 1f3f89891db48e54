import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { Readable } from "node:stream";
import type { Problem } from "../contract/problem.ts";
import { serverProblem } from "../contract/problem.ts";
import type { Handler } from "../edge/handler.ts";
import type { AssetRules } from "./asset-rules.ts";
import type { FileIndex } from "./assets.ts";
import { openAnswer, SMALL_FILE, wholeBody, type FileBody } from "./binding.ts";
import { answerAsset } from "./static.ts";
import { headerMapOf, wireHeaders, type HeaderMap } from "./wire.ts";

/**
 * The server's HTTP front (node:http): Cloudflare's router for this build (`run_worker_first`
 * paths to the Worker; a path with an asset to the asset path; anything else to the Worker), and
 * the limits a server facing the open network needs. More requests in flight than it takes are
 * answered at once with a 503 problem; a request head over 128 KiB (workerd's limit) is a 431
 * problem, a method the parser does not know a 501 problem, an unparsable request a 400 problem;
 * idle keep-alive connections are closed after a while, slow request heads after 20 s.
 */

export interface Site {
  readonly dir: string;
  readonly files: FileIndex;
  readonly rules: AssetRules;
  readonly worker: Handler;
  readonly workerFirst: (pathname: string) => boolean;
  /** The headers of every answer (the build's `_headers` catch-all, as the Worker sends them). */
  readonly common: readonly (readonly [string, string])[];
  /** The health endpoint's path and body. */
  readonly health: { readonly path: string; readonly body: string };
}

export interface Limits {
  /** Requests answered at once; beyond, 503 at once. */
  readonly maxInFlight: number;
  readonly keepAliveMs: number;
  readonly headersTimeoutMs: number;
  readonly maxHeaderBytes: number;
}

export const DEFAULT_LIMITS: Limits = {
  maxInFlight: 1024,
  keepAliveMs: 30_000,
  headersTimeoutMs: 20_000,
  maxHeaderBytes: 128 * 1024,
};

/** The server, not yet listening. */
export function createFront(site: Site, limits: Limits = DEFAULT_LIMITS): Server {
  let inFlight = 0;
  const release = () => inFlight--;
  const failed = (res: ServerResponse) => (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    res.destroy(); // a response that broke off mid-way must not look complete
  };
  const server = createServer(
    {
      maxHeaderSize: limits.maxHeaderBytes,
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.headersTimeoutMs * 3,
      keepAliveTimeout: limits.keepAliveMs,
      connectionsCheckingInterval: 5_000, // how often the head and request timeouts are checked
      // Lets a request that a client sends just as its connection idles out be answered.
      keepAliveTimeoutBuffer: 1_000,
      noDelay: true,
    },
    (req, res) => {
      if (inFlight >= limits.maxInFlight) {
        sendProblem(
          res,
          site,
          serverProblem(503, "The server is answering as many requests as it takes; retry."),
          [["Retry-After", "1"]],
        );
        return;
      }
      inFlight++;
      res.once("close", release);
      // A file's answer is sent synchronously; only the Worker's is a promise.
      try {
        answer(site, req, res)?.catch(failed(res));
      } catch (error) {
        failed(res)(error);
      }
    },
  );
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Socket) =>
    refuse(site, error, socket),
  );
  return server;
}

function answer(site: Site, req: IncomingMessage, res: ServerResponse): Promise<void> | undefined {
  const host = req.headers.host ?? "localhost";
  const target = req.url ?? "/";
  let url: URL;
  try {
    // Concatenated, not resolved against a base: `//x` is a path here, not another host.
    url = new URL(target.startsWith("/") ? `http://${host}${target}` : target);
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(url.protocol);
  } catch {
    sendProblem(res, site, serverProblem(400, "The request's target or Host is not a URL."));
    return;
  }
  if (url.pathname === site.health.path) {
    res.writeHead(200, [
      "Content-Length",
      String(Buffer.byteLength(site.health.body)),
      "Content-Type",
      "application/json",
      "Cache-Control",
      "no-store",
    ]);
    res.end(site.health.body);
    return;
  }
  const method = req.method ?? "GET";
  if (!site.workerFirst(url.pathname)) {
    const opened = openAnswer(
      site.dir,
      answerAsset(site.files, site.rules, {
        method,
        url,
        header: (name) => headerValue(req, name),
      }),
    );
    if (opened !== undefined) {
      sendAsset(res, opened.answer.status, opened.answer.headers, opened.body);
      return undefined;
    }
  }
  return askWorker(site, req, res, url, method);
}

async function askWorker(
  site: Site,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  method: string,
): Promise<void> {
  // The pairs as they came (repeated names appended by the Request, as a Headers object would).
  const headers: [string, string][] = [];
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2)
    headers.push([req.rawHeaders[i] ?? "", req.rawHeaders[i + 1] ?? ""]);
  const response = await site.worker(new Request(url, { method, headers }));
  await sendResponse(res, response);
}

function headerValue(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}

function sendAsset(
  res: ServerResponse,
  status: number,
  headers: HeaderMap,
  body: FileBody | undefined,
): void {
  if (body !== undefined) headers.set("content-length", String(body.size));
  else if (bodyless(res, status)) headers.set("content-length", "0");
  res.writeHead(status, wireHeaders(headers));
  if (body === undefined) res.end();
  else if ("bytes" in body) res.end(body.bytes);
  else pipeFile(res, body.stream);
}

/** A file's stream to the client; a read failure breaks the connection (never a short body that looks whole). */
function pipeFile(res: ServerResponse, stream: Readable): void {
  stream.on("error", () => res.destroy());
  res.once("close", () => stream.destroy());
  stream.pipe(res);
}

/**
 * A Worker's Response on the wire. A body of unknown length is buffered up to `SMALL_FILE` bytes
 * and sent with its length (as workerd sends a body it has whole), else streamed chunked; a body
 * whose length the Worker states is streamed as it comes.
 */
async function sendResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers = headerMapOf(response.headers);
  if (response.body === null) {
    if (bodyless(res, response.status)) headers.set("content-length", "0");
    res.writeHead(response.status, wireHeaders(headers));
    res.end();
    return;
  }
  const whole = wholeBody(response.body);
  const stated = headers.get("content-length");
  if (whole !== undefined && (stated === undefined || stated === String(whole.byteLength))) {
    headers.set("content-length", String(whole.byteLength));
    res.writeHead(response.status, wireHeaders(headers));
    res.end(whole);
    return;
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let buffered = 0;
  // A length the Worker states is sent at once: a body that then fails shows as cut short.
  let streaming = headers.has("content-length");
  if (streaming) res.writeHead(response.status, wireHeaders(headers));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!streaming) {
        chunks.push(value);
        buffered += value.byteLength;
        if (buffered <= SMALL_FILE) continue;
        streaming = true;
        res.writeHead(response.status, wireHeaders(headers));
        for (const chunk of chunks.splice(0)) res.write(chunk);
      } else if (!res.write(value)) await new Promise((resolve) => res.once("drain", resolve));
      if (res.destroyed) return void (await reader.cancel());
    }
  } catch (error) {
    res.destroy(); // the body failed mid-way: the client must see a broken response
    throw error;
  }
  if (streaming) return void res.end();
  if (!headers.has("content-length")) headers.set("content-length", String(buffered));
  res.writeHead(response.status, wireHeaders(headers));
  res.end(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
}

/** An answer without a body that still carries `Content-Length: 0`, as workerd sends it (not to HEAD, not a 204 or 304). */
function bodyless(res: ServerResponse, status: number): boolean {
  return res.req.method !== "HEAD" && status !== 204 && status !== 304;
}

function problemHead(
  site: Site,
  problem: Problem,
  extra: readonly (readonly [string, string])[],
): { headers: HeaderMap; body: Buffer } {
  const body = Buffer.from(JSON.stringify(problem));
  const headers: HeaderMap = new Map();
  for (const [name, value] of [...site.common, ...extra]) headers.set(name.toLowerCase(), value);
  headers.set("content-type", "application/problem+json; charset=utf-8");
  headers.set("content-length", String(body.length));
  return { headers, body };
}

function sendProblem(
  res: ServerResponse,
  site: Site,
  problem: Problem,
  extra: readonly (readonly [string, string])[] = [],
): void {
  const { headers, body } = problemHead(site, problem, extra);
  res.writeHead(problem.status, wireHeaders(headers));
  res.end(body);
}

/** A request the parser refused: a problem on the raw socket, then the connection closed. */
function refuse(site: Site, error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === "ECONNRESET" || !socket.writable) return void socket.destroy();
  const problem =
    error.code === "HPE_HEADER_OVERFLOW"
      ? serverProblem(431, "The request's line and headers are longer than 128 KiB.")
      : error.code === "HPE_INVALID_METHOD"
        ? serverProblem(501, "The request's method is not one this server knows; use GET or HEAD.")
        : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
          ? serverProblem(408, "The request's head did not arrive in time.")
          : serverProblem(400, "The request is not valid HTTP/1.1.");
  const { headers, body } = problemHead(site, problem, [["Connection", "close"]]);
  const flat = wireHeaders(headers);
  let head = `HTTP/1.1 ${problem.status} ${problem.title}\r\n`;
  for (let i = 0; i + 1 < flat.length; i += 2) head += `${flat[i]}: ${flat[i + 1]}\r\n`;
  socket.end(Buffer.concat([Buffer.from(`${head}\r\n`, "latin1"), body]));
}

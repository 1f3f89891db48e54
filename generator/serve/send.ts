import type { ServerResponse } from "node:http";
import type { Readable } from "node:stream";
import { STREAM_PIECE, WHOLE_FILE, wholeBody, type FileBody } from "./binding.ts";
import { headerMapOf, wireHeaders, type HeaderMap } from "./wire.ts";

/**
 * Answers on the wire, with bounded buffering: a body goes out in pieces of at most
 * `STREAM_PIECE`, each after the socket took the one before, so that a client that reads slowly
 * holds at most one piece in the server's socket buffer (and the send timeout in http.ts closes a
 * client that takes nothing).
 */

/** An asset's answer: its file's bytes (whole or streamed) or no body. */
export function sendAsset(
  res: ServerResponse,
  status: number,
  headers: HeaderMap,
  body: FileBody | undefined,
): void {
  if (body !== undefined) headers.set("content-length", String(body.size));
  else if (bodyless(res, status)) headers.set("content-length", "0");
  res.writeHead(status, wireHeaders(headers));
  if (body === undefined) res.end();
  else if ("bytes" in body) void endWith(res, body.bytes);
  else pipeFile(res, body.stream);
}

/** Writes `bytes` and ends the response: at once when small, else piece by piece as the socket takes them. */
async function endWith(res: ServerResponse, bytes: Uint8Array): Promise<void> {
  for (let at = 0; at + STREAM_PIECE < bytes.byteLength; at += STREAM_PIECE) {
    if (!res.write(bytes.subarray(at, at + STREAM_PIECE)) && !(await drained(res))) return;
  }
  res.end(bytes.subarray(bytes.byteLength - (bytes.byteLength % STREAM_PIECE || STREAM_PIECE)));
}

/** Resolves true once the response can take more, false when its connection closed first. */
function drained(res: ServerResponse): Promise<boolean> {
  if (res.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (taken: boolean) => () => {
      res.off("drain", onDrain);
      res.off("close", onClose);
      resolve(taken);
    };
    const onDrain = done(true);
    const onClose = done(false);
    res.once("drain", onDrain);
    res.once("close", onClose);
  });
}

/** A file's stream to the client; a read failure breaks the connection (never a short body that looks whole). */
function pipeFile(res: ServerResponse, stream: Readable): void {
  stream.on("error", () => res.destroy());
  res.once("close", () => stream.destroy());
  stream.pipe(res);
}

/**
 * A Worker's Response on the wire. A body of unknown length is buffered up to `WHOLE_FILE` bytes
 * and sent with its length (as workerd sends a body it has whole), else streamed chunked; a body
 * whose length the Worker states is streamed as it comes.
 */
export async function sendResponse(res: ServerResponse, response: Response): Promise<void> {
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
    return endWith(res, whole);
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
        if (buffered <= WHOLE_FILE) continue;
        streaming = true;
        res.writeHead(response.status, wireHeaders(headers));
        for (const chunk of chunks.splice(0)) if (!(await write(res, chunk))) break;
      } else await write(res, value);
      if (res.destroyed) return void (await reader.cancel());
    }
  } catch (error) {
    res.destroy(); // the body failed mid-way: the client must see a broken response
    throw error;
  }
  if (streaming) return void res.end();
  if (!headers.has("content-length")) headers.set("content-length", String(buffered));
  res.writeHead(response.status, wireHeaders(headers));
  await endWith(res, chunks.length === 1 ? (chunks[0] as Uint8Array) : Buffer.concat(chunks));
}

/** Writes a chunk piece by piece as the socket takes them; false when the connection closed. */
async function write(res: ServerResponse, chunk: Uint8Array): Promise<boolean> {
  for (let at = 0; at < chunk.byteLength; at += STREAM_PIECE)
    if (!res.write(chunk.subarray(at, at + STREAM_PIECE)) && !(await drained(res))) return false;
  return !res.destroyed;
}

/** An answer without a body that still carries `Content-Length: 0`, as workerd sends it (not to HEAD, not a 204 or 304). */
function bodyless(res: ServerResponse, status: number): boolean {
  return res.req.method !== "HEAD" && status !== 204 && status !== 304;
}

import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { ALLOWED_METHODS } from "../contract/headers.ts";
import { methodNotAllowedProblem, serverProblem, type Problem } from "../contract/problem.ts";
import { wireHeaders, type HeaderMap } from "./wire.ts";

/**
 * What the server answers itself, in the API's problem format, to requests it does not pass on:
 * heads the parser refused (on the raw socket), CONNECT, request lines of other HTTP versions, an
 * HTTP/1.1 request without Host, an expectation it cannot meet, a target or Host that is no URL
 * or carries a user name or password (never logged), more requests at once than it takes.
 */

/** The headers every problem carries (the build's common headers), in wire order. */
export type CommonHeaders = readonly (readonly [string, string])[];

/** The limits the refusals name. */
export interface HeadLimits {
  readonly maxHeaderBytes: number;
  readonly maxHeaderLines: number;
}

export function problemHead(
  common: CommonHeaders,
  problem: Problem,
  extra: readonly (readonly [string, string])[],
): { headers: HeaderMap; body: Buffer } {
  const body = Buffer.from(JSON.stringify(problem));
  const headers: HeaderMap = new Map();
  for (const [name, value] of [...common, ...extra]) headers.set(name.toLowerCase(), value);
  headers.set("content-type", "application/problem+json; charset=utf-8");
  headers.set("content-length", String(body.length));
  return { headers, body };
}

export function sendProblem(
  res: ServerResponse,
  common: CommonHeaders,
  problem: Problem,
  extra: readonly (readonly [string, string])[] = [],
): void {
  const { headers, body } = problemHead(common, problem, extra);
  res.writeHead(problem.status, wireHeaders(headers));
  res.end(body);
}

/** A problem written on the raw socket (no response object), then the connection closed. */
export function problemOnSocket(
  socket: Socket,
  common: CommonHeaders,
  problem: Problem,
  extra: readonly (readonly [string, string])[] = [],
): void {
  const { headers, body } = problemHead(common, problem, [...extra, ["Connection", "close"]]);
  const flat = wireHeaders(headers);
  let head = `HTTP/1.1 ${problem.status} ${problem.title}\r\n`;
  for (let i = 0; i + 1 < flat.length; i += 2) head += `${flat[i]}: ${flat[i + 1]}\r\n`;
  socket.end(Buffer.concat([Buffer.from(`${head}\r\n`, "latin1"), body]));
}

const KiB = (bytes: number) => `${bytes / 1024} KiB`;

/** A request the parser refused: a problem on the raw socket, then the connection closed. */
export function refuseHead(
  common: CommonHeaders,
  limits: HeadLimits,
  error: NodeJS.ErrnoException & { bytesParsed?: number; rawPacket?: Buffer },
  socket: Socket,
): void {
  if (error.code === "ECONNRESET" || !socket.writable) return void socket.destroy();
  const lines = limits.maxHeaderLines.toLocaleString("en-US");
  const problem =
    error.code === "HPE_HEADER_OVERFLOW"
      ? serverProblem(
          431,
          overLines(error, socket, limits)
            ? `The request has more than ${lines} header lines, the most this server takes.`
            : `The request's line and headers are longer than ${KiB(limits.maxHeaderBytes)}, the most this server takes.`,
        )
      : error.code === "HPE_INVALID_METHOD"
        ? serverProblem(501, "The request's method is not one this server knows; use GET or HEAD.")
        : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
          ? serverProblem(408, "The request's head did not arrive in time.")
          : serverProblem(400, "The request is not valid HTTP/1.1 (or HTTP/1.0).");
  problemOnSocket(socket, common, problem);
}

/**
 * Whether the parser stopped at the count of header lines rather than the head's size (it says
 * HPE_HEADER_OVERFLOW for both): certainly so when the connection brought fewer bytes than the
 * size limit, or when what it parsed of the last read holds that many line ends since a head began.
 */
function overLines(
  error: { bytesParsed?: number; rawPacket?: Buffer },
  socket: Socket,
  limits: HeadLimits,
): boolean {
  if (socket.bytesRead < limits.maxHeaderBytes) return true;
  const parsed = error.rawPacket?.subarray(0, error.bytesParsed ?? 0) ?? Buffer.alloc(0);
  const ended = parsed.lastIndexOf("\r\n\r\n");
  const head = ended < 0 ? parsed : parsed.subarray(ended + 4);
  let ends = 0;
  for (let at = head.indexOf("\n"); at !== -1; at = head.indexOf("\n", at + 1)) ends++;
  return ends >= limits.maxHeaderLines;
}

/** CONNECT (a proxy's method; Node hands it over apart from other requests): a 405, then the connection closed. */
export function refuseConnect(common: CommonHeaders, socket: Socket): void {
  problemOnSocket(socket, common, methodNotAllowedProblem("CONNECT", ALLOWED_METHODS), [
    ["Allow", ALLOWED_METHODS],
  ]);
}

/** An `Expect` other than `100-continue` (Node answers 100-continue itself). */
export function refuseExpectation(res: ServerResponse, common: CommonHeaders): void {
  sendProblem(
    res,
    common,
    serverProblem(417, "The request's Expect is not one this server meets; send none."),
    [["Connection", "close"]],
  );
}

/** A problem for a request line or Host the server does not answer, or undefined for a request it does. */
export function refusalOf(req: IncomingMessage): Problem | undefined {
  const { httpVersionMajor: major, httpVersionMinor: minor } = req;
  if (major !== 1 || (minor !== 0 && minor !== 1))
    return serverProblem(
      400,
      major === 0
        ? "The request line has no HTTP version (HTTP/0.9); send HTTP/1.1."
        : `HTTP/${major}.${minor} is not served here; send HTTP/1.1.`,
    );
  if (minor === 1 && req.headers.host === undefined)
    return serverProblem(400, "An HTTP/1.1 request must name its Host.");
  return undefined;
}

/**
 * The request's URL from its target and Host, or a problem. A user name or password in either is
 * refused without repeating it (a fetch Request cannot carry one, and it must reach no log).
 */
export function requestUrl(req: IncomingMessage): URL | Problem {
  const host = req.headers.host ?? "localhost";
  const target = req.url ?? "/";
  let url: URL;
  try {
    // Concatenated, not resolved against a base: `//x` is a path here, not another host.
    url = new URL(target.startsWith("/") ? `http://${host}${target}` : target);
  } catch {
    return serverProblem(400, "The request's target or Host is not a URL.");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return serverProblem(400, "The request's target or Host is not an http or https URL.");
  if (url.username !== "" || url.password !== "")
    return serverProblem(
      400,
      "The request's target or Host holds a user name or password; this server takes none.",
    );
  return url;
}

import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { serverProblem } from "../contract/problem.ts";
import { openAnswer } from "./binding.ts";
import {
  refusalOf,
  refuseConnect,
  refuseExpectation,
  refuseHead,
  requestUrl,
  sendProblem,
} from "./refusals.ts";
import { sendAsset, sendResponse } from "./send.ts";
import type { Site } from "./site.ts";
import type { Sites } from "./sites.ts";
import { clientOf, inTurn, Slots } from "./slots.ts";
import { answerAsset } from "./static.ts";

/**
 * The server's HTTP front (node:http): Cloudflare's router for this build (`run_worker_first`
 * paths to the Worker; a path with an asset to the asset path; anything else to the Worker), and
 * the limits a server facing the open network needs (docs/REQUEST-LIMITS.md): answers made one at
 * a time per connection with a bounded queue of pipelined requests (slots.ts), a bounded number
 * in production per process and per client address (beyond: a 503 problem at once), bodies sent
 * in bounded pieces (send.ts), a connection that takes nothing of its answer for `sendTimeoutMs`
 * closed, and every request it does not pass on answered with a problem (refusals.ts).
 */

export interface Limits {
  /** Answers in production or on their way out at once; beyond, 503 at once. */
  readonly maxInFlight: number;
  /** Of those, for one client address. */
  readonly maxInFlightPerClient: number;
  /** Requests waiting on one connection behind the one being answered; one more closes it. */
  readonly maxPipelined: number;
  /** A connection with an answer pending that takes no byte of it for this long is closed. */
  readonly sendTimeoutMs: number;
  readonly keepAliveMs: number;
  readonly headersTimeoutMs: number;
  readonly maxHeaderBytes: number;
  readonly maxHeaderLines: number;
}

export const DEFAULT_LIMITS: Limits = {
  maxInFlight: 1024,
  maxInFlightPerClient: 256,
  maxPipelined: 32,
  sendTimeoutMs: 30_000,
  keepAliveMs: 30_000,
  headersTimeoutMs: 20_000,
  maxHeaderBytes: 128 * 1024,
  maxHeaderLines: 1000,
};

/** One build that never changes, as a `Sites` (tests that build a Site by hand). */
export function fixedSite(site: Site): Sites {
  return {
    current: () => site,
    after: () => Promise.resolve(undefined),
    use: () => () => undefined,
    lost: () => false,
    close: () => undefined,
  };
}

/** The server, not yet listening. */
export function createFront(sites: Sites, limits: Limits = DEFAULT_LIMITS): Server {
  const slots = new Slots(limits.maxInFlight, limits.maxInFlightPerClient);
  const common = () => sites.current().common;
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
      requireHostHeader: false, // answered with a problem below
    },
    (req, res) =>
      inTurn(res, limits.maxPipelined, () => {
        const refusal = refusalOf(req);
        if (refusal !== undefined)
          return sendProblem(res, common(), refusal, [["Connection", "close"]]);
        const client = clientOf(req.socket);
        if (!slots.take(client))
          return sendProblem(
            res,
            common(),
            serverProblem(503, "The server is answering as many requests as it takes; retry."),
            [["Retry-After", "1"]],
          );
        res.once("close", () => slots.release(client));
        // A file's answer is sent synchronously; only the Worker's is a promise.
        try {
          answer(sites, req, res)?.catch(failed(res));
        } catch (error) {
          failed(res)(error);
        }
      }),
  );
  server.maxHeadersCount = limits.maxHeaderLines;
  // Inactivity while a request is in flight (Node resets it whenever the socket takes or brings
  // bytes); with no 'timeout' listener Node then destroys the socket.
  server.timeout = limits.sendTimeoutMs;
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Socket) =>
    refuseHead(common(), limits, error, socket),
  );
  server.on("connect", (_: IncomingMessage, socket: Socket) => refuseConnect(common(), socket));
  server.on("checkExpectation", (_: IncomingMessage, res: ServerResponse) =>
    inTurn(res, limits.maxPipelined, () => refuseExpectation(res, common())),
  );
  return server;
}

/** A failure of the Worker's code (logged: it is a bug) breaks off its answer. */
const failed = (res: ServerResponse) => (error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  res.destroy(); // a response that broke off mid-way must not look complete
};

/** Answers from the build being served; a file of it that is gone (a rebuild) is answered by the next. */
function answer(
  sites: Sites,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> | undefined {
  const site = sites.current();
  const url = requestUrl(req);
  if (!(url instanceof URL)) return void sendProblem(res, site.common, url);
  if (url.pathname === site.health.path) {
    res.writeHead(200, [
      ...["Content-Length", String(Buffer.byteLength(site.health.body))],
      ...["Content-Type", "application/json", "Cache-Control", "no-store"],
    ]);
    res.end(site.health.body);
    return;
  }
  res.once("close", sites.use(site));
  const method = req.method ?? "GET";
  if (!site.workerFirst(url.pathname)) {
    const asset = answerAsset(site.files, site.rules, {
      method,
      url,
      header: (name) => headerValue(req, name),
    });
    const opened = openAnswer(site.read, asset);
    if (opened !== undefined) {
      sendAsset(res, opened.answer.status, opened.answer.headers, opened.body);
      return undefined;
    }
    // A listed file that could not be read: a new build may have replaced it.
    if (asset?.file !== undefined) return retried(sites, site, req, res);
  }
  return askWorker(sites, site, req, res, url, method);
}

/** The request again from the build that replaced `site`, or the Worker's answer from `site` when none did. */
async function retried(
  sites: Sites,
  site: Site,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const next = await sites.after(site);
  if (next !== undefined) return answer(sites, req, res);
  const url = requestUrl(req) as URL;
  return askWorker(sites, site, req, res, url, req.method ?? "GET");
}

async function askWorker(
  sites: Sites,
  site: Site,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  method: string,
): Promise<void> {
  const request = workerRequest(url, method, req.rawHeaders);
  if (request === undefined)
    return sendProblem(
      res,
      site.common,
      serverProblem(400, "The request is not one the Worker takes."),
    );
  const lostBefore = site.read.lost;
  const response = await site.worker(request);
  if (site.read.lost !== lostBefore && (await sites.after(site)) !== undefined) {
    await response.body?.cancel();
    return answer(sites, req, res); // the Worker read a build that was replaced meanwhile
  }
  await sendResponse(res, response);
}

/** Methods a fetch Request refuses (forbidden methods) that workerd hands a Worker all the same. */
const FORBIDDEN_METHODS = /^(?:CONNECT|TRACE|TRACK)$/i;

/**
 * The fetch Request the Worker gets, its header pairs as they came (repeated names appended, as a
 * Headers object does), or undefined when none can be made of the request.
 */
function workerRequest(url: URL, method: string, raw: readonly string[]): Request | undefined {
  const headers: [string, string][] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) headers.push([raw[i] ?? "", raw[i + 1] ?? ""]);
  const forbidden = FORBIDDEN_METHODS.test(method);
  try {
    const request = new Request(url, { method: forbidden ? "GET" : method, headers });
    // workerd passes TRACE to the Worker (which answers 405): so does this server.
    if (forbidden) Object.defineProperty(request, "method", { value: method });
    return request;
  } catch {
    return undefined;
  }
}

function headerValue(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}

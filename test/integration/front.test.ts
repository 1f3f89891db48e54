import type { Server } from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { afterEach, describe, expect, it } from "vitest";
import { assetRules } from "../../generator/serve/asset-rules.ts";
import type { FileIndex } from "../../generator/serve/assets.ts";
import { BuildFiles } from "../../generator/serve/binding.ts";
import { BuildDirectory } from "../../generator/serve/build-dir.ts";
import { createFront, DEFAULT_LIMITS, fixedSite, type Limits } from "../../generator/serve/http.ts";
import { rawRequest } from "../support/http.ts";
import { exchange, sendRaw } from "../support/raw-socket.ts";

/**
 * The server's HTTP front on its own, in this process, with a stand-in Worker: what it answers
 * itself (requests it cannot parse or take), never silence or a reset, and a Worker body that
 * fails mid-way breaking the connection instead of ending like a whole one.
 */
const COMMON = [["X-Frame-Options", "DENY"]] as const;
const NO_FILES: FileIndex = { count: 0, lookup: () => undefined };

let server: Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  return new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
});

async function front(
  worker: (request: Request) => Promise<Response>,
  limits: Partial<Limits> = {},
): Promise<string> {
  server = createFront(
    fixedSite({
      files: NO_FILES,
      read: new BuildFiles(BuildDirectory.open(tmpdir())),
      rules: assetRules({}),
      worker,
      workerFirst: () => true,
      common: COMMON,
      health: { path: "/_health", body: "{}" },
    }),
    { ...DEFAULT_LIMITS, ...limits },
  );
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", () => resolve()));
  return `http://127.0.0.1:${(server?.address() as AddressInfo).port}`;
}

const ok = () => Promise.resolve(new Response("ok", { headers: { "content-type": "text/plain" } }));

describe("the HTTP front answers what it cannot pass on with a problem", () => {
  it.each([
    ["an unknown method: 501", "FOO /de/Streets HTTP/1.1", 501],
    ["a lower-case method: 501", "get /de/Streets HTTP/1.1", 501],
    ["a request line over 128 KiB: 431", `GET /de/Streets?x=${"y".repeat(140_000)} HTTP/1.1`, 431],
    ["a header block over 128 KiB: 431", `GET / HTTP/1.1\r\nX-Big: ${"y".repeat(140_000)}`, 431],
    ["an HTTP version it does not speak: 400", "GET / HTTP/9.9", 400],
  ])("%s", async (_, head, status) => {
    const origin = await front(ok);
    const response = await exchange(origin, `${head}\r\nHost: localhost`);
    expect(response.status).toBe(status);
    expect(response.headers["content-type"]).toBe("application/problem+json; charset=utf-8");
    expect(response.headers["x-frame-options"]).toBe("DENY");
    expect(response.complete).toBe(true);
    expect(JSON.parse(response.body.toString()) as unknown).toMatchObject({ status });
  });

  it("passes a request line just under the limit to the Worker", async () => {
    const origin = await front(ok);
    const response = await rawRequest(origin, `/de/Streets?x=${"y".repeat(124_646)}`);
    expect([response.status, response.text]).toEqual([200, "ok"]);
  });

  it("answers requests beyond its in-flight limit at once with 503 and Retry-After", async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const origin = await front(async () => (await held, ok()), { maxInFlight: 2 });
    const first = [rawRequest(origin, "/a"), rawRequest(origin, "/b")];
    await new Promise((resolve) => setTimeout(resolve, 100)); // both are in flight now
    const refused = await rawRequest(origin, "/c");
    expect([refused.status, refused.headers["retry-after"]]).toEqual([503, "1"]);
    expect(refused.headers["content-type"]).toBe("application/problem+json; charset=utf-8");
    release();
    expect((await Promise.all(first)).map((r) => r.status)).toEqual([200, 200]);
    expect((await rawRequest(origin, "/d")).status).toBe(200);
  });

  it("breaks the connection when a Worker body fails mid-way (no short body that looks whole)", async () => {
    const origin = await front(() => {
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent++ < 3) controller.enqueue(new Uint8Array(600_000));
          else controller.error(new Error("a file went missing"));
        },
      });
      return Promise.resolve(new Response(body));
    });
    const response = await exchange(origin, "GET /download HTTP/1.1\r\nHost: localhost");
    expect(response.status).toBe(200);
    expect(response.complete).toBe(false);
  });

  it("sends a Worker body of unknown length with its Content-Length when it is small", async () => {
    const origin = await front(() =>
      Promise.resolve(new Response(new Blob(["a", "bc"]).stream(), { status: 201 })),
    );
    const response = await rawRequest(origin, "/x");
    expect([response.status, response.headers["content-length"], response.text]).toEqual([
      201,
      "3",
      "abc",
    ]);
  });
});

/**
 * A Worker whose answer to /download is a body of 64 MiB with its length (no socket buffer takes
 * it whole), and "ok" to anything else: counts the requests it got and the bodies the server gave
 * up on (their connection closed).
 */
function largeBodies() {
  const seen = { requests: 0, cancelled: 0 };
  const worker = (request: Request) => {
    seen.requests++;
    if (!request.url.endsWith("/download")) return ok();
    const size = 64 * 1024 * 1024;
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new Uint8Array(64 * 1024));
        if ((sent += 64 * 1024) >= size) controller.close();
      },
      cancel() {
        seen.cancelled++;
      },
    });
    return Promise.resolve(new Response(body, { headers: { "content-length": String(size) } }));
  };
  return { seen, worker };
}

/** Connections that each send one request and never read a byte of the answer. */
function slowReaders(origin: string, count: number): Socket[] {
  const { port } = new URL(origin);
  return Array.from({ length: count }, () => {
    const socket = connect({ host: "127.0.0.1", port: Number(port) }, () =>
      socket.write("GET /download HTTP/1.1\r\nHost: x\r\n\r\n"),
    );
    socket.pause();
    socket.on("error", () => undefined);
    return socket;
  });
}

const until = async (done: () => boolean) => {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 20));
};

describe("clients that stop reading cannot lock others out", () => {
  it("a connection whose client takes nothing of its answer is closed after the send timeout, and its slot is free again (was: held for ever)", async () => {
    const { seen, worker } = largeBodies();
    const origin = await front(worker, {
      maxInFlight: 4,
      maxInFlightPerClient: 4,
      sendTimeoutMs: 1_000,
    });
    const readers = slowReaders(origin, 4);
    await until(() => seen.requests === 4);
    const refused = await rawRequest(origin, "/x");
    // A 503 while the four hold every slot; a 200 only if the machine was so busy that the send
    // timeout had already freed one (never a reason to fail: that is what the test is about).
    if (!(refused.status === 200 && seen.cancelled > 0))
      expect([refused.status, refused.headers["retry-after"]]).toEqual([503, "1"]);
    await until(() => seen.cancelled === 4); // the server closed all four
    expect(
      (await sendRaw(origin, "GET /x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")).statuses,
    ).toEqual([200]);
    readers.forEach((socket) => socket.destroy());
  });

  it("one client address cannot take every slot: another address is answered (was: 503 for everyone)", async () => {
    const { seen, worker } = largeBodies();
    const origin = await front(worker, { maxInFlight: 8, maxInFlightPerClient: 4 });
    const readers = slowReaders(origin, 8);
    await until(() => seen.requests >= 4);
    await new Promise((resolve) => setTimeout(resolve, 200)); // the other four have come in
    const other = await sendRaw(
      origin,
      "GET /x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
      "127.0.0.2",
    );
    expect(other.statuses).toEqual([200]);
    expect(seen.requests).toBe(5); // four of the eight, and the other client's
    readers.forEach((socket) => socket.destroy());
  });

  it("a client that pipelines more than 32 requests loses the connection; fewer are answered in order", async () => {
    const origin = await front(ok);
    const request = "GET /x HTTP/1.1\r\nHost: x\r\n\r\n";
    const within = await sendRaw(
      origin,
      `${request.repeat(20)}GET /x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    );
    expect(within.statuses).toEqual(Array<number>(21).fill(200));
    const beyond = await sendRaw(origin, request.repeat(100));
    expect(beyond.statuses.length).toBeLessThan(34);
  });
});

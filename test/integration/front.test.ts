import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { afterEach, describe, expect, it } from "vitest";
import { assetRules } from "../../generator/serve/asset-rules.ts";
import type { FileIndex } from "../../generator/serve/assets.ts";
import { BuildFiles } from "../../generator/serve/binding.ts";
import { BuildDirectory } from "../../generator/serve/build-dir.ts";
import { createFront, DEFAULT_LIMITS, fixedSite, type Limits } from "../../generator/serve/http.ts";
import { rawRequest } from "../support/http.ts";
import { exchange } from "../support/raw-socket.ts";

/**
 * The server's HTTP front on its own, in this process, with a stand-in Worker: what it answers
 * itself (requests it cannot parse or take), never silence or a reset, and a Worker body that
 * fails mid-way breaking the connection instead of ending like a whole one.
 */
const COMMON = [["X-Frame-Options", "DENY"]] as const;
const NO_FILES: FileIndex = { count: 0, lookup: () => undefined };

let server: Server | undefined;
afterEach(
  () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())),
);

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

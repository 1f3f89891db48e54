import { createHash } from "node:crypto";
import {
  appendFileSync,
  cpSync,
  mkdirSync,
  readFileSync,
  renameSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildToDirectory, type BuildOptions } from "../../generator/build/build.ts";
import { tempDir } from "../support/fixture.ts";
import {
  rawRequest,
  startAll,
  startServer,
  type RawResponse,
  type RunningServer,
} from "../support/http.ts";
import { ROOT, SPAWN_BOUND_MS } from "../support/paths.ts";
import { sendRaw } from "../support/raw-socket.ts";

/**
 * Clients an attacker would write, on raw sockets, against the server as users run it (its own
 * process, `npm run serve`): a connection pipelining a thousand large files without reading, the
 * methods and heads a fetch Request cannot carry, credentials in Host and target, a rebuild into
 * the directory being served, and a file of the build replaced by a link out of it. Every request
 * gets an answer in the API's problem format (or the Worker's own), nothing a client sends in its
 * credentials reaches the log, memory stays flat, and no body goes out under another's ETag.
 */
const work = tempDir("hostile-clients");
const options = (builtAt: string): BuildOptions => ({
  root: ROOT,
  sources: {},
  maxFiles: 20_000,
  headersTemplate: readFileSync(join(ROOT, "_headers"), "utf8"),
  only: ["de.federalstates", "ch.cantons"],
  builtAt,
});
const dir = join(work, "dist");
const rebuilt = join(work, "rebuilt");
const log = join(work, "server.log");
/** A file of the size that the old server read whole per request, uncached (948 KB, as the issue's). */
const BIG = "/downloads/big.csv";
let server: RunningServer;
let rebuiltServer: RunningServer;

/** Adds a file to a build as the build would list it. */
function addFile(root: string, path: string, bytes: Buffer): void {
  writeFileSync(join(root, path), bytes);
  const digest = createHash("sha256").update(bytes).digest("base64url");
  appendFileSync(join(root, "_files.tsv"), `${path}\t${digest}\t${bytes.byteLength}\n`);
}

beforeAll(async () => {
  await buildToDirectory(options("2026-01-01T00:00:00.000Z"), dir);
  cpSync(dir, rebuilt, { recursive: true });
  addFile(dir, BIG, Buffer.from("0123456789abcdef,".repeat(55_772)));
  const before = process.env["PLZ_SERVER_LOG"];
  process.env["PLZ_SERVER_LOG"] = log; // the server's output, kept for the tests of what it logs
  try {
    [server, rebuiltServer] = await startAll([startServer(dir), startServer(rebuilt)]);
  } finally {
    if (before === undefined) delete process.env["PLZ_SERVER_LOG"];
    else process.env["PLZ_SERVER_LOG"] = before;
  }
});
afterAll(async () => Promise.all([server?.stop(), rebuiltServer?.stop()]));

const problemOf = (reply: { headers: Record<string, string>; body: string }) => {
  expect(reply.headers["content-type"]).toBe("application/problem+json; charset=utf-8");
  return JSON.parse(reply.body) as { status: number; detail: string };
};

describe("a client that pipelines and never reads", () => {
  it("1,000 pipelined requests for a 948 KB file do not inflate the server (was: +925 MB in 3 s, kept after the client left)", async () => {
    const before = server.rssKiB();
    const { hostname, port } = new URL(server.origin);
    const attacker = connect({ host: hostname, port: Number(port) });
    attacker.pause(); // never reads
    attacker.on("error", () => undefined);
    await new Promise((resolve) =>
      attacker.write(`GET ${BIG} HTTP/1.1\r\nHost: x\r\n\r\n`.repeat(1000), resolve),
    );
    // The server answers another client once it has taken the flood in; its memory over 2 s after.
    expect((await rawRequest(server.origin, "/_health")).status).toBe(200);
    let most = 0;
    for (let sample = 0; sample < 10; sample++) {
      most = Math.max(most, server.rssKiB());
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    attacker.destroy();
    expect((most - before) / 1024, "MiB the server grew by").toBeLessThan(100);
  });

  it("pipelined requests within the limit are answered, in order", async () => {
    const paths = ["/de/FederalStates", "/ch/Cantons", "/nowhere", "/de/FederalStates?format=csv"];
    const reply = await sendRaw(
      server.origin,
      `${paths.map((p) => `GET ${p} HTTP/1.1\r\nHost: x\r\n\r\n`).join("")}GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    );
    expect(reply.statuses).toEqual([200, 200, 404, 200, 200]);
  });
});

describe("requests a fetch Request cannot carry get an answer, and nothing of them reaches the log", () => {
  const send = (head: string) => sendRaw(server.origin, `${head}\r\n\r\n`);

  it("TRACE on a path the Worker answers: its 405 problem (was: the connection closed, a stack trace logged)", async () => {
    const reply = await send("TRACE /de/FederalStates HTTP/1.1\r\nHost: x\r\nConnection: close");
    expect(reply.statuses).toEqual([405]);
    expect(reply.headers["allow"]).toBe("GET, HEAD, OPTIONS");
    expect(problemOf(reply).status).toBe(405);
  });

  it.each([
    ["a user and password in Host", "GET /de/FederalStates HTTP/1.1\r\nHost: user29b:pass29b@x"],
    [
      "a user and password in an absolute-form target",
      "GET http://user29b:pass29b@x/de/FederalStates HTTP/1.1\r\nHost: x",
    ],
  ])(
    "%s: a 400 problem that repeats neither (was: the connection closed, both logged)",
    async (_, head) => {
      const reply = await send(`${head}\r\nConnection: close`);
      expect(reply.statuses).toEqual([400]);
      expect(problemOf(reply).detail).toMatch(/user name or password/);
      expect(reply.body).not.toMatch(/user29b|pass29b/);
    },
  );

  it("CONNECT: a 405 problem, then the connection closed (was: closed without a word)", async () => {
    const reply = await send("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443");
    expect(reply.statuses).toEqual([405]);
    expect(reply.headers["allow"]).toBe("GET, HEAD, OPTIONS");
    expect(problemOf(reply).detail).toMatch(/CONNECT/);
  });

  it("the log holds no stack trace and no credential of these requests", () => {
    const output = readFileSync(log, "utf8");
    expect(output).not.toMatch(/user29b|pass29b|TypeError|    at /);
  });
});

describe("odd heads and versions get a problem that says what is wrong, or a proper answer", () => {
  it("1,000 header lines in 10 KB: a 431 naming the count of lines (was: 'longer than 128 KiB')", async () => {
    const lines = Array.from({ length: 1000 }, (_, i) => `X-${i}: v`).join("\r\n");
    const reply = await sendRaw(
      server.origin,
      `GET /ch/Cantons HTTP/1.1\r\nHost: x\r\n${lines}\r\n\r\n`,
    );
    expect(reply.statuses).toEqual([431]);
    expect(problemOf(reply).detail).toBe(
      "The request has more than 1,000 header lines, the most this server takes.",
    );
  });

  it("a head over 128 KiB in few lines: a 431 naming the byte limit", async () => {
    const reply = await sendRaw(
      server.origin,
      `GET /ch/Cantons HTTP/1.1\r\nHost: x\r\nX-Big: ${"y".repeat(140_000)}\r\n\r\n`,
    );
    expect(reply.statuses).toEqual([431]);
    expect(problemOf(reply).detail).toMatch(/longer than 128 KiB/);
  });

  it.each([
    [
      "HTTP/1.1 without Host (was: Node's bare 400 with an empty chunked body)",
      "GET /ch/Cantons HTTP/1.1",
      400,
      /Host/,
    ],
    [
      "Expect: 200-ok (was: a bare 417)",
      "GET /ch/Cantons HTTP/1.1\r\nHost: x\r\nExpect: 200-ok",
      417,
      /Expect/,
    ],
    [
      "a request line without a version (was: a 200 with headers an HTTP/0.9 client cannot read)",
      "GET /ch/Cantons",
      400,
      /no HTTP version/,
    ],
    [
      "HTTP/2.0 in a request line (was: 200)",
      "GET /ch/Cantons HTTP/2.0\r\nHost: x",
      400,
      /HTTP\/2\.0 is not served/,
    ],
  ])("%s: a problem, then the connection closed", async (_, head, status, detail) => {
    const reply = await sendRaw(server.origin, `${head}\r\n\r\n`);
    expect(reply.statuses).toEqual([status]);
    expect(reply.headers["connection"]).toBe("close");
    expect(problemOf(reply).detail).toMatch(detail);
  });

  it("HTTP/1.0 (what nginx's proxy_pass sends by default) is answered, whole, and the connection closed", async () => {
    const reply = await sendRaw(server.origin, "GET /ch/Cantons HTTP/1.0\r\n\r\n");
    expect(reply.statuses).toEqual([200]);
    expect(reply.headers["transfer-encoding"]).toBeUndefined();
    expect(Buffer.byteLength(reply.body)).toBe(Number(reply.headers["content-length"]));
    expect(reply.body).toBe((await rawRequest(server.origin, "/ch/Cantons")).text);
  });
});

describe("a file of the build replaced by a link out of it (needs write access to the build: defence in depth)", () => {
  it.each([
    ["the file itself", "/openapi.json", "file"],
    ["a directory on its path", "/downloads/index.json", "directory"],
  ])("%s: not served (was: served under the build's ETag)", async (_, path, replaced) => {
    // The link's target holds bytes of the listed size, so that only the link gives it away.
    const outside = join(work, `outside-${replaced}`);
    const listed = readFileSync(join(dir, path));
    if (replaced === "file") {
      writeFileSync(outside, Buffer.alloc(listed.byteLength, "S"));
      unlinkSync(join(dir, path));
      symlinkSync(outside, join(dir, path));
    } else {
      mkdirSync(outside);
      writeFileSync(join(outside, "index.json"), Buffer.alloc(listed.byteLength, "S"));
      renameSync(join(dir, "downloads"), join(work, "downloads-moved"));
      symlinkSync(outside, join(dir, "downloads"));
    }
    const response = await rawRequest(server.origin, path);
    expect(response.text).not.toMatch(/SSSS/);
    // The Worker's answer for a file of the build it cannot read: 404 or 500, never the link's target.
    expect([404, 500]).toContain(response.status);
  });
});

describe("a rebuild into the directory being served", () => {
  it("never sends the new body under the old ETag: the new build is served whole, ETags included (was: new body, old ETag, and a 304 for the old ETag)", async () => {
    const path = "/downloads/index.json"; // holds the build time: differs between the two builds
    const oldBody = readFileSync(join(rebuilt, path));
    const head = await rawRequest(rebuiltServer.origin, path, { method: "HEAD" });
    const oldEtag = head.headers["etag"] ?? "";
    expect([head.status, oldEtag]).toEqual([200, expect.stringMatching(/^"/)]);
    // Other clients are answered all along, from one build or the other.
    const answers: number[] = [];
    let building = true;
    const asking = (async () => {
      while (building) answers.push((await rawRequest(rebuiltServer.origin, "/ch/Cantons")).status);
    })();
    await buildToDirectory(options("2026-02-02T00:00:00.000Z"), rebuilt);
    const fresh = readFileSync(join(rebuilt, path));
    expect(fresh.equals(oldBody)).toBe(false);
    // Until it has loaded the new build the server may answer from the old one, but only whole.
    let now: RawResponse | undefined;
    const asked = Date.now();
    for (let tries = 0; now === undefined || !now.body.equals(fresh); tries++) {
      if (tries > 0) await new Promise((resolve) => setTimeout(resolve, 100));
      now = await rawRequest(rebuiltServer.origin, path);
      expect(now.status).toBe(200);
      if (now.body.equals(oldBody)) expect(now.headers["etag"]).toBe(oldEtag);
      else {
        expect(now.body.equals(fresh), "a body of neither build").toBe(true);
        expect(now.headers["etag"], "the new body's ETag").not.toBe(oldEtag);
      }
      // A bound on a hang, not on the work (it was 300 tries, about 30 s: a slow reload on a busy machine).
      expect(Date.now() - asked, "ms until the new build is served").toBeLessThan(SPAWN_BOUND_MS);
    }
    building = false;
    await asking;
    expect(answers.length).toBeGreaterThan(0);
    expect(answers.filter((status) => status !== 200)).toEqual([]);
    const revalidated = await rawRequest(rebuiltServer.origin, path, {
      headers: { "If-None-Match": oldEtag },
    });
    expect([revalidated.status, revalidated.body.equals(fresh)]).toEqual([200, true]);
    const health = JSON.parse((await rawRequest(rebuiltServer.origin, "/_health")).text) as {
      builtAt: string;
    };
    expect(health.builtAt).toBe("2026-02-02T00:00:00.000Z");
  });
});

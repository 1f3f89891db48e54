import { closeSync, ftruncateSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildInto, loadBuildSources, type BuildOptions } from "../../generator/build/build.ts";
import { MemorySink } from "../../generator/io/sink.ts";
import { download, type FetchOptions } from "../../generator/sources/fetch.ts";
import type { LoadEvent } from "../../generator/sources/load.ts";
import { fixtureStreets, tempDir } from "../support/fixture.ts";
import { dataFile, ROOT, SPAWN_BOUND_MS } from "../support/paths.ts";
import { craftZip, honestEntry, zeroBombEntry } from "../support/zip-craft.ts";

/**
 * Sources that lie, or are too large: each fails the build with one line naming the source, before
 * it costs memory. The archives are crafted here, byte by byte; the large remote source
 * is a loopback server that streams for as long as it is read.
 */
const work = tempDir("hostile-sources");
const localities = readFileSync(dataFile("ch/AMTOVZ_CSV_LV95.csv"));
const ENTRY = "AMTOVZ_CSV_LV95/AMTOVZ_CSV_LV95.csv";
const MiB = 1024 * 1024;

function load(
  sources: BuildOptions["sources"],
  fetch: BuildOptions["fetch"] = {},
  onSource?: (event: LoadEvent) => void,
) {
  return loadBuildSources({
    root: ROOT,
    sources,
    fetch: { cacheDir: join(tempDir("cache"), "c"), cacheDuration: "0s", ...fetch },
    ...(onSource === undefined ? {} : { onSource }),
  });
}

function file(name: string, bytes: Uint8Array): string {
  const path = join(work, name);
  writeFileSync(path, bytes);
  return path;
}

/** The register of localities without its last `lines` lines: where a size that lies cuts it. */
const cutAt = (lines: number) =>
  localities.byteLength -
  Buffer.from(
    localities
      .toString("latin1")
      .split("\n")
      .slice(-lines - 1)
      .join("\n"),
    "latin1",
  ).byteLength +
  1;

describe("crafted archives as the register of localities (ch-localities)", () => {
  it("reads an honest archive of the register in full", async () => {
    const loaded = await load({
      "ch-localities": file("honest.zip", craftZip([honestEntry(ENTRY, localities)])),
    });
    expect(Buffer.from(loaded["ch-localities"].bytes).equals(localities)).toBe(true);
    expect(loaded["ch-localities"].provenance.entry).toBe(ENTRY);
  });

  it.each([
    // 4 MB of archive, 4,000 MiB if inflated: the old reader took 4.06 GiB before it counted the entries.
    [
      "four matching entries of 1,000 MiB each",
      () =>
        craftZip(
          [1, 2, 3, 4].map((n) => zeroBombEntry(`AMTOVZ_CSV_LV95/${n}/AMTOVZ_CSV_LV95.csv`, 1000)),
        ),
      /: expected one zip entry matching .*, found AMTOVZ_CSV_LV95\/1\/AMTOVZ_CSV_LV95\.csv, .*AMTOVZ_CSV_LV95\/4\/AMTOVZ_CSV_LV95\.csv \(entries: /,
    ],
    // The old reader inflated to the declared size and built green with 28 fewer localities (under the 2% guard).
    [
      "the register declaring 28 lines fewer than it holds",
      () => craftZip([{ ...honestEntry(ENTRY, localities), size: cutAt(28) }]),
      new RegExp(`: zip entry ${ENTRY}: inflates to more than the declared ${cutAt(28)} bytes$`),
    ],
    [
      "the register with a wrong CRC-32",
      () => craftZip([{ ...honestEntry(ENTRY, localities), crc: 0x12345678 }]),
      new RegExp(
        `: zip entry ${ENTRY}: CRC-32 [0-9a-f]{8} does not match the declared 12345678 \\(a damaged archive\\)$`,
      ),
    ],
    [
      "one entry of 1,000 MiB (more than the readers can hold)",
      () => craftZip([zeroBombEntry(ENTRY, 1000)]),
      /: zip entry .*: declares 1048576000 bytes, more than the limit of \d+ bytes$/,
    ],
  ])("%s: fails with one line naming the source", async (what, archive, message) => {
    const path = file(`${what.replace(/\W+/g, "-")}.zip`, archive());
    const failure = await load({ "ch-localities": path }).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(failure?.message).toMatch(message);
    expect(failure?.message).toMatch(/^source ch-localities \(.*\.zip\): /);
    expect(failure?.message.split("\n")).toHaveLength(1);
  });
});

describe("a source file too large for the readers", () => {
  it("700 MB on disk fails by its size, before it is read (was: 1.6 GiB, then a message naming no source)", async () => {
    const path = join(work, "streets-700MB.csv");
    const fd = openSync(path, "w");
    ftruncateSync(fd, 700_000_000); // sparse: no disk space, and only reading it would cost memory
    closeSync(fd);
    const before = process.memoryUsage().rss;
    const failure = await load({ "de-streets": path }).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(failure?.message).toMatch(
      /^source de-streets: .*streets-700MB\.csv is 700000000 bytes, more than the limit of \d+ bytes for one source \(what the readers can hold as one string\)$/,
    );
    expect(process.memoryUsage().rss - before).toBeLessThan(100 * MiB);
  });
});

describe("remote sources: streamed, stopped at the limit; credentials never published", () => {
  let server: Server;
  /** Bytes the server sent per path, and what it answers: a body of fixed bytes, or an endless stream. */
  const sent = new Map<string, number>();
  const streets = readFileSync(fixtureStreets(tempDir("streets")));
  beforeAll(async () => {
    server = createServer((request, response) => {
      const path = new URL(request.url ?? "/", "http://localhost").pathname;
      const count = (bytes: number) => sent.set(path, (sent.get(path) ?? 0) + bytes);
      if (path === "/missing.csv") return void response.writeHead(404).end();
      if (path === "/streets-gzip.csv") {
        const body = gzipSync(streets);
        count(body.byteLength);
        response
          .writeHead(200, {
            "Content-Type": "text/csv",
            "Content-Encoding": "gzip",
            "Content-Length": String(body.byteLength),
          })
          .end(body);
        return;
      }
      if (path === "/streets.csv" || path === "/streets-chunked.csv") {
        count(streets.byteLength);
        const length =
          path === "/streets.csv" ? { "Content-Length": String(streets.byteLength) } : {};
        response.writeHead(200, { "Content-Type": "text/csv", ...length });
        // in two writes, so that a chunked response is chunked
        response.write(streets.subarray(0, 1000));
        response.end(streets.subarray(1000));
        return;
      }
      // 2.5 GB, announced or not: sent in 64 KiB pieces for as long as the client reads.
      const announced = path === "/announced.csv";
      response.writeHead(200, announced ? { "Content-Length": String(2_500_000_000) } : {});
      const piece = Buffer.alloc(64 * 1024, 0x41);
      const pump = () => {
        while (!response.destroyed && (sent.get(path) ?? 0) < 2_500_000_000) {
          count(piece.byteLength);
          if (!response.write(piece)) return void response.once("drain", pump);
        }
        response.end();
      };
      response.on("close", () => response.destroy());
      pump();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  });
  afterAll(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const fetching = (maxBytes?: number): FetchOptions => ({
    cacheDir: join(tempDir("cache"), "c"),
    cacheDuration: "0s",
    allowStale: false,
    timeoutMs: SPAWN_BOUND_MS, // a hang's bound: these downloads are over loopback
    ...(maxBytes === undefined ? {} : { maxBytes }),
  });
  const url = (path: string) => `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;

  it.each([
    [
      "without a Content-Length: stopped once past the limit",
      "/endless.csv",
      /: download failed: the download was stopped at \d+ bytes \(\d+\.\d MiB\), more than the limit of 4194304 bytes \(4\.0 MiB\) for one source$/,
    ],
    [
      "announcing 2.5 GB: refused before its body is read",
      "/announced.csv",
      /: download failed: the publisher announces 2500000000 bytes \(2384\.2 MiB\), more than the limit of 4194304 bytes \(4\.0 MiB\) for one source$/,
    ],
  ])("a 2.5 GB download %s", async (_, path, message) => {
    const failure = await load({ "de-streets": url(path) }, { maxBytes: 4 * MiB }).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(failure?.message).toMatch(message);
    expect(failure?.message).toMatch(
      new RegExp(`^source de-streets \\(${url(path).replace(/[.?]/g, "\\$&")}\\): `),
    );
    // What the server got out before the client stopped reading: the limit, plus what the sockets buffer.
    expect(sent.get(path) ?? 0).toBeLessThan(64 * MiB);
  });

  it.each([
    ["with its Content-Length", "/streets.csv", 0],
    ["without a Content-Length", "/streets-chunked.csv", 0],
    ["gzip-encoded (its Content-Length is of the compressed body)", "/streets-gzip.csv", 0],
    ["exactly at the limit", "/streets.csv", streets.byteLength],
  ])("a download within the limit arrives whole: %s", async (_, path, maxBytes) => {
    const got = await download(url(path), fetching(maxBytes === 0 ? undefined : maxBytes));
    expect(Buffer.from(got.bytes).equals(streets)).toBe(true);
  });

  it.each([
    [
      "announced by its Content-Length: refused before its body is read",
      "/streets.csv",
      "the publisher announces",
    ],
    [
      "sent without a Content-Length: stopped there",
      "/streets-chunked.csv",
      "the download was stopped at",
    ],
  ])("one byte over the limit, %s", async (_, path, what) => {
    await expect(download(url(path), fetching(streets.byteLength - 1))).rejects.toThrow(
      new RegExp(
        `^${what} ${streets.byteLength} bytes .*, more than the limit of ${streets.byteLength - 1} bytes`,
      ),
    );
  });

  it("a source URL's user, password and query string are published nowhere: manifest, build record, events, messages", async () => {
    const secret = "access_token=SECRET-29b&x=1";
    const located = `${url("/streets.csv")}?${secret}#frag`;
    const events: LoadEvent[] = [];
    const sink = new MemorySink();
    await buildInto(
      {
        root: ROOT,
        sources: { "de-streets": located },
        maxFiles: 30_000,
        headersTemplate: readFileSync(join(ROOT, "_headers"), "utf8"),
        builtAt: "2026-11-22T03:00:00.000Z",
        fetch: { cacheDir: join(tempDir("cache"), "c"), cacheDuration: "0s" },
        onSource: (event) => events.push(event),
        only: ["de.streets"],
      },
      sink,
    );
    const manifest = JSON.parse(sink.text("/downloads/index.json") ?? "") as {
      sources: { name: string; location: string }[];
    };
    expect(manifest.sources.find((s) => s.name === "de-streets")?.location).toBe(
      url("/streets.csv"),
    );
    for (const [path, data] of sink.files) {
      const text = typeof data === "string" ? data : Buffer.from(data).toString("latin1");
      expect(text, path).not.toMatch(/SECRET-29b|frag/);
    }
    expect(events.find((e) => e.name === "de-streets")?.location).toBe(url("/streets.csv"));

    // fetch refuses a URL with a user and password; the message quoting it must not publish them.
    const missing = url(`/missing.csv?${secret}`).replace(
      "http://",
      "http://operator:PASSWORD-29b@",
    );
    const failure = await load({ "de-streets": missing }).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(failure?.message).toMatch(
      /^source de-streets \(http:\/\/127\.0\.0\.1:\d+\/missing\.csv\): download failed: /,
    );
    expect(failure?.message).not.toMatch(/SECRET|PASSWORD|operator/);
  });
});

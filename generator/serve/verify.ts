import { isFullTextSearch, isSuggesting } from "../contract/routes.ts";
import { createHash } from "node:crypto";
import { Agent, request } from "node:http";
import type { ChangeFeed } from "../contract/changes.ts";
import { csvHeader } from "../contract/csv.ts";
import {
  DOWNLOADS_INDEX,
  type DownloadFile,
  type DownloadsManifest,
} from "../contract/downloads.ts";
import { CONTENT_TYPES, PROBLEM_CONTENT_TYPE } from "../contract/headers.ts";
import { renderPage } from "../contract/page.ts";
import { CANONICAL_PAGE_SIZE, pageBounds, pageCount } from "../contract/paging.ts";
import { RESOURCES } from "../resources/index.ts";
import type { AnyResource } from "../resources/resource.ts";
import { viewCases, type ViewCase } from "./verify-views.ts";

/**
 * A smoke test of a built output as served: a fixed set of real requests against every endpoint
 * (first, last and a cut page, CSV), the docs, a 400 and a 404, and every file of the downloads
 * manifest with its size, media type and SHA-256. The expected answers come from the build's own
 * downloads. A failed request is counted and reported, never retried.
 */
export interface VerifyReport {
  readonly checks: number;
  readonly failures: readonly string[];
}

interface Answer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly body: Buffer;
}

const CONCURRENCY = 8;

export async function verifyBuild(
  origin: string,
  onProgress?: (message: string) => void,
): Promise<VerifyReport> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const failures: string[] = [];
  let checks = 0;
  const get = (path: string) => httpGet(agent, origin, path);
  /** One request and what its answer must be; a failed expectation or request is one line. */
  const expectAnswer = async (
    path: string,
    expected: {
      status: number;
      contentType?: string;
      headers?: Readonly<Record<string, string>>;
      body?: string;
    },
  ): Promise<Answer | undefined> => {
    checks++;
    let answer: Answer;
    try {
      answer = await get(path);
    } catch (error) {
      failures.push(`GET ${path}: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
    const wrong: string[] = [];
    if (answer.status !== expected.status)
      wrong.push(`status ${answer.status}, expected ${expected.status}`);
    if (
      expected.contentType !== undefined &&
      answer.headers["content-type"] !== expected.contentType
    )
      wrong.push(
        `Content-Type ${answer.headers["content-type"]}, expected ${expected.contentType}`,
      );
    for (const [name, value] of Object.entries({
      "access-control-allow-origin": "*",
      ...expected.headers,
    })) {
      if (answer.headers[name] !== value)
        wrong.push(`${name}: ${answer.headers[name] ?? "(none)"}, expected ${value}`);
    }
    if (expected.body !== undefined && answer.body.toString("utf8") !== expected.body)
      wrong.push(
        `the body differs from the downloads' records (${answer.body.byteLength} bytes, expected ${Buffer.byteLength(expected.body)})`,
      );
    if (wrong.length > 0) failures.push(`GET ${path}: ${wrong.join("; ")}`);
    return answer;
  };

  try {
    const index = await expectAnswer(DOWNLOADS_INDEX, {
      status: 200,
      contentType: CONTENT_TYPES.json,
    });
    if (index === undefined || index.status !== 200) return { checks, failures };
    const manifest = JSON.parse(index.body.toString("utf8")) as DownloadsManifest;
    const fetchText = async (path: string) => {
      const answer = await get(path);
      if (answer.status !== 200) throw new Error(`GET ${path}: status ${answer.status}`);
      return answer.body.toString("utf8");
    };

    // The endpoints this build serves are the ones its OpenAPI document describes (an optional
    // source's endpoints are absent from a build without it).
    const openapi = await expectAnswer("/openapi.json", { status: 200 });
    const documented = new Set(
      Object.keys(
        (JSON.parse(openapi?.body.toString("utf8") ?? "{}") as { paths?: Record<string, unknown> })
          .paths ?? {},
      ),
    );
    let firstPaged: string | undefined;
    // A full-text search has no records of its own (nor downloads): it answers from the Streets', as
    // suggestions and the address check do.
    for (const resource of RESOURCES.filter(
      (r) => documented.has(r.path) && !isFullTextSearch(r) && !isSuggesting(r),
    )) {
      if (!manifest.files.some((f) => f.endpoint === resource.path)) {
        checks++;
        failures.push(`${resource.path}: the downloads manifest has no file of it`);
        continue;
      }
      let cases: ViewCase[];
      try {
        cases = await viewCases(resource, manifest.files, fetchText);
      } catch (error) {
        checks++;
        failures.push(
          `${resource.path}: ${error instanceof Error ? error.message : String(error)}`,
        );
        continue;
      }
      for (const view of cases) await checkView(resource, view, expectAnswer);
      if (resource.query.paged) firstPaged ??= cases[0]?.target;
      onProgress?.(`${resource.path}: ${cases.length} views`);
    }

    await expectAnswer("/", { status: 200, contentType: "text/html; charset=utf-8" });
    await expectAnswer("/openapi.json", { status: 200, contentType: CONTENT_TYPES.json });
    if (firstPaged !== undefined)
      await expectAnswer(withQuery(firstPaged, "pageSize=0"), {
        status: 400,
        contentType: PROBLEM_CONTENT_TYPE,
      });
    await expectAnswer("/verify/no-such-path", { status: 404, contentType: PROBLEM_CONTENT_TYPE });

    let done = 0;
    await pool(manifest.files, CONCURRENCY, async (file) => {
      await checkDownload(file, get, (message) => failures.push(message));
      checks++;
      if (++done % 1000 === 0) onProgress?.(`downloads: ${done}/${manifest.files.length}`);
    });
    onProgress?.(`downloads: ${manifest.files.length} files`);
    // The change feed and every change file it lists (those carried forward from earlier builds too), against their SHA-256.
    const feed = manifest.changeFeed;
    if (feed !== undefined) {
      const fail = (message: string) => failures.push(message);
      await checkDownload({ ...feed, mediaType: CONTENT_TYPES.json }, get, fail);
      checks++;
      const builds = (JSON.parse(await fetchText(feed.path)) as ChangeFeed).builds;
      const files = builds.flatMap((build) => build.files);
      await pool(files, CONCURRENCY, async (file) => {
        await checkDownload({ ...file, mediaType: CONTENT_TYPES[file.format] }, get, fail);
        checks++;
      });
      onProgress?.(`change feed: ${builds.length} builds, ${files.length} files`);
    }
    return { checks, failures };
  } finally {
    agent.destroy();
  }
}

type Expect = (
  path: string,
  expected: {
    status: number;
    contentType?: string;
    headers?: Readonly<Record<string, string>>;
    body?: string;
  },
) => Promise<Answer | undefined>;

/** A view's first page, last page and a cut page (size 7, page 2) as JSON, and its first page as CSV. */
async function checkView(
  resource: AnyResource,
  view: ViewCase,
  expectAnswer: Expect,
): Promise<void> {
  const header = csvHeader(resource.record.columns);
  if (!resource.query.paged) {
    await expectAnswer(view.target, {
      status: 200,
      contentType: CONTENT_TYPES.json,
      body: renderPage("json", "", view.json),
    });
    await expectAnswer(withQuery(view.target, "format=csv"), {
      status: 200,
      contentType: CONTENT_TYPES.csv,
      body: renderPage("csv", header, view.csv),
    });
    return;
  }
  const total = view.json.length;
  const pages = pageCount(total, CANONICAL_PAGE_SIZE);
  const page = async (query: string, format: "json" | "csv", number: number, size: number) => {
    const { start, end } = pageBounds(number, size, total);
    const paging = {
      "x-page": String(number),
      "x-page-size": String(size),
      "x-total-count": String(total),
      "x-total-pages": String(pageCount(total, size)),
    };
    await expectAnswer(withQuery(view.target, query), {
      status: 200,
      contentType: CONTENT_TYPES[format],
      headers: paging,
      body: renderPage(format, header, view[format].slice(start, end)),
    });
  };
  await page("", "json", 1, CANONICAL_PAGE_SIZE);
  if (pages > 1) await page(`page=${pages}`, "json", pages, CANONICAL_PAGE_SIZE);
  if (total > 7) await page("pageSize=7&page=2", "json", 2, 7);
  await page("format=csv", "csv", 1, CANONICAL_PAGE_SIZE);
}

/** A download file as the manifest lists it: its bytes, media type and SHA-256. */
async function checkDownload(
  file: Pick<DownloadFile, "path" | "mediaType" | "bytes" | "sha256">,
  get: (path: string) => Promise<Answer>,
  fail: (message: string) => void,
): Promise<void> {
  let answer: Answer;
  try {
    answer = await get(file.path);
  } catch (error) {
    return fail(`GET ${file.path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const wrong: string[] = [];
  if (answer.status !== 200) wrong.push(`status ${answer.status}, expected 200`);
  else {
    if (answer.headers["content-type"] !== file.mediaType)
      wrong.push(`Content-Type ${answer.headers["content-type"]}, expected ${file.mediaType}`);
    if (answer.body.byteLength !== file.bytes)
      wrong.push(`${answer.body.byteLength} bytes, the manifest says ${file.bytes}`);
    const sha256 = createHash("sha256").update(answer.body).digest("hex");
    if (sha256 !== file.sha256) wrong.push(`SHA-256 ${sha256}, the manifest says ${file.sha256}`);
  }
  if (wrong.length > 0) fail(`GET ${file.path}: ${wrong.join("; ")}`);
}

function withQuery(target: string, query: string): string {
  return query === "" ? target : `${target}${target.includes("?") ? "&" : "?"}${query}`;
}

/** One GET with node:http (bodies as sent: a gzip download is not decompressed). */
function httpGet(agent: Agent, origin: string, path: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${origin}${path}`, { agent, timeout: 60_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers as Record<string, string | undefined>,
          body: Buffer.concat(chunks),
        }),
      );
      res.on("error", reject);
    });
    req.on("timeout", () => req.destroy(new Error("no answer within 60 s")));
    req.on("error", reject);
    req.end();
  });
}

async function pool<T>(
  items: readonly T[],
  width: number,
  run: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) await run(items[next++] as T);
    }),
  );
}

import { existsSync, mkdirSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPTIONAL_RESOURCES, RESOURCES } from "../../generator/resources/index.ts";
import { buildFixture } from "../support/fixture.ts";
import { ROOT, SPAWN_BOUND_MS } from "../support/paths.ts";
import { rawRequest, startAll, startServer, type RunningServer } from "../support/http.ts";

/**
 * The docs page in a real browser: Debian's Chromium (never a downloaded one), driven by
 * playwright-core, against wrangler dev serving the fixture build (Berlin has 600 streets).
 * `PLZ_CHROMIUM` points at another Chromium-based browser, e.g. `/usr/bin/google-chrome` on
 * GitHub's Ubuntu runners (whose `chromium` apt package is only a snap shim).
 */
const CHROMIUM = process.env["PLZ_CHROMIUM"] || "/usr/bin/chromium";
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
const RESULTS = join(ROOT, "test-results");
/** A phone (390 CSS px, as an iPhone 12 to 15) and a desktop window. */
const WIDTHS = [390, 1280] as const;

let api: RunningServer;
let browser: Browser;
let other: Server;
let otherOrigin: string;

beforeAll(async () => {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `${CHROMIUM} is missing: apt-get install -y --no-install-recommends chromium, or set PLZ_CHROMIUM to a Chromium or Chrome executable`,
    );
  // Without the Swiss street directory: /ch/FullTextSearch is an endpoint this build does not serve.
  // No page files (the pages are cut from the packed records, the same answers): request-limits
  // serves this build too.
  const { dir } = await buildFixture(20_000, undefined, { swissStreets: false, pageFiles: false });
  const [started, launched, page] = await startAll([
    startServer(dir),
    chromium
      .launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: SPAWN_BOUND_MS })
      .then((b) => ({ browser: b, stop: () => b.close() })),
    otherOriginServer().then((s) => ({ server: s, stop: () => closeServer(s) })),
  ]);
  api = started;
  browser = launched.browser;
  other = page.server;
  otherOrigin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await browser?.close();
  if (other !== undefined) await closeServer(other);
  await api?.stop();
});

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

/** A page on another loopback port: a different origin from the API's. */
function otherOriginServer(): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer((_, response) => {
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      response.end("<!doctype html><title>another origin</title><p>another origin</p>");
    });
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve(server));
  });
}

/** A fresh page that records script errors and console errors (CSP violations are reported there). */
async function openPage(
  options: { javaScriptEnabled?: boolean; width?: number } = {},
): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const { width = 1200, ...rest } = options;
  const phone = width < 500;
  const context = await browser.newContext({
    viewport: { width, height: phone ? 844 : 900 },
    isMobile: phone,
    hasTouch: phone,
    ...rest,
  });
  // Playwright's 30 s for each navigation, action and wait would fail a busy machine (load 6 on
  // two cores), not a wrong page: they wait as long as a spawned process may (a hang's bound).
  context.setDefaultTimeout(SPAWN_BOUND_MS);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error" && !/favicon/.test(message.location().url))
      problems.push(`console: ${message.text()}`);
  });
  return { context, page, problems };
}

const headerValues = (page: Page) =>
  page.$$eval("#try-headers dd", (cells) =>
    cells.map((cell) => [cell.getAttribute("data-header"), cell.textContent]),
  );

async function submit(page: Page): Promise<string> {
  await page.locator("#try-status").evaluate((status) => (status.textContent = ""));
  await page.getByRole("button", { name: "Send request" }).click();
  await page
    .locator("#try-status")
    .filter({ hasText: /^HTTP \d+/ })
    .waitFor();
  return (await page.locator("#try-status").textContent()) ?? "";
}

describe("the docs page in Chromium", () => {
  it("the form asks for Berlin, page 3, size 20 and shows 600 streets in 30 pages and 20 rows", async () => {
    const { context, page, problems } = await openPage();
    try {
      await page.goto(`${api.origin}/`);
      expect(await page.locator("#try-nojs").isHidden()).toBe(true);
      await page.getByLabel("Endpoint", { exact: true }).selectOption("/de/Streets");
      await page.getByLabel("Locality", { exact: true }).fill("Berlin");
      await page.getByLabel("Page", { exact: true }).fill("3");
      await page.getByLabel("Page size", { exact: true }).fill("20");
      expect(await submit(page)).toMatch(/^HTTP 200, application\/json.*20 records shown/);

      expect(await headerValues(page)).toEqual([
        ["x-page", "3"],
        ["x-page-size", "20"],
        ["x-total-count", "600"],
        ["x-total-pages", "30"],
      ]);
      expect(await page.locator("#try-table tbody tr").count()).toBe(20);
      expect(await page.locator("#try-target").textContent()).toBe(
        "GET /de/Streets?locality=Berlin&page=3&pageSize=20",
      );
      // the rows are the API's records, in order
      const records = JSON.parse(
        (await rawRequest(api.origin, "/de/Streets?locality=Berlin&page=3&pageSize=20")).text,
      ) as { name: string }[];
      expect(await page.locator("#try-table tbody tr td:first-child").allTextContents()).toEqual(
        records.map((r) => r.name),
      );

      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("puts a key into the path and optional filters into the query", async () => {
    const { context, page, problems } = await openPage();
    try {
      await page.goto(`${api.origin}/`);
      await page
        .getByLabel("Endpoint", { exact: true })
        .selectOption("/de/Districts/{key}/Municipalities");
      expect(await page.getByLabel("Locality", { exact: true }).isDisabled()).toBe(true);
      await page.getByLabel("Key", { exact: true }).fill("09189");
      await page.getByLabel("Page", { exact: true }).fill("2");
      await page.getByLabel("Page size", { exact: true }).fill("5");
      expect(await submit(page)).toMatch(/^HTTP 200, application\/json.*5 records shown/);
      expect(await page.locator("#try-target").textContent()).toBe(
        "GET /de/Districts/09189/Municipalities?page=2&pageSize=5",
      );
      expect((await headerValues(page)).map(([, value]) => value)).toEqual(["2", "5", "37", "8"]);

      await page.getByLabel("Endpoint", { exact: true }).selectOption("/de/Localities");
      expect(await page.getByLabel("Key", { exact: true }).isDisabled()).toBe(true);
      await page.getByLabel("PostalCode", { exact: true }).fill("01920");
      await page.getByLabel("Name", { exact: true }).fill("");
      await page.getByLabel("Page", { exact: true }).fill("1");
      expect(await submit(page)).toMatch(/^HTTP 200, application\/json.*2 records shown/);
      expect(await page.locator("#try-target").textContent()).toBe(
        "GET /de/Localities?postalCode=01920&page=1&pageSize=5",
      );
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("shows CSV, unpaged lists without paging headers, and a 400 problem", async () => {
    const { context, page, problems } = await openPage();
    try {
      await page.goto(`${api.origin}/`);
      await page.getByLabel("Page size", { exact: true }).fill("7");
      await page.getByLabel("CSV").check();
      expect(await submit(page)).toMatch(/^HTTP 200, text\/csv.*7 records shown/);
      expect(await page.locator("#try-table thead th").first().textContent()).toBe("Name");
      expect(await page.locator("#try-table tbody tr").count()).toBe(7);
      expect((await headerValues(page)).map(([, value]) => value)).toEqual(["1", "7", "600", "86"]);

      await page.getByLabel("Endpoint", { exact: true }).selectOption("/ch/Cantons");
      for (const label of ["Locality", "Page", "Page size"])
        expect(await page.getByLabel(label, { exact: true }).isDisabled(), label).toBe(true);
      await page.getByLabel("JSON").check();
      expect(await submit(page)).toMatch(/26 records shown/);
      expect(await page.locator("#try-table tbody tr").count()).toBe(26);
      expect((await headerValues(page)).map(([, value]) => value)).toEqual([
        "not sent",
        "not sent",
        "not sent",
        "not sent",
      ]);

      await page.getByLabel("Endpoint", { exact: true }).selectOption("/de/Streets");
      await page.getByLabel("Page size", { exact: true }).fill("51");
      expect(await submit(page)).toMatch(/^HTTP 400: .*pageSize must be between 1 and 50/);
      expect(await page.locator("#try-table tbody tr").count()).toBe(0);
      expect(problems.filter((p) => !p.includes("400"))).toEqual([]); // the browser logs the 400 itself
    } finally {
      await context.close();
    }
  });

  it("suggests a misspelt street with its postal code first, and checks an address", async () => {
    const { context, page, problems } = await openPage();
    const firstRow = () => page.locator("#try-table tbody tr").first().textContent();
    try {
      await page.goto(`${api.origin}/`);
      await page.getByLabel("Endpoint", { exact: true }).selectOption("/de/Suggestions");
      await page.getByLabel("SearchTerm", { exact: true }).fill("Achtermanstrase 13187");
      expect(await submit(page)).toMatch(/^HTTP 200, application\/json/);
      expect(await firstRow()).toMatch(/Achtermannstraße.*13187/);

      await page.getByLabel("Endpoint", { exact: true }).selectOption("/de/AddressCheck");
      expect(await page.getByLabel("Page", { exact: true }).isDisabled()).toBe(true);
      await page.getByLabel("Street", { exact: true }).fill("Achtermannstraße");
      await page.getByLabel("PostalCode", { exact: true }).fill("10115");
      await page.getByLabel("Locality", { exact: true }).fill("Berlin");
      expect(await submit(page)).toMatch(/^HTTP 200, application\/json.*valid: false/);
      expect(await firstRow()).toMatch(/Achtermannstraße.*13187/);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("a page of another origin reads the paging headers and the ETag, and revalidates with If-None-Match", async () => {
    const { context, page } = await openPage();
    try {
      await page.goto(`${otherOrigin}/`);
      expect(new URL(page.url()).origin).not.toBe(api.origin);
      const seen = await page.evaluate(async (origin) => {
        const target = `${origin}/de/Streets?locality=Berlin&page=2&pageSize=10`;
        const response = await fetch(target);
        const records = (await response.json()) as unknown[];
        const names = ["x-page", "x-page-size", "x-total-count", "x-total-pages"];
        const etag = response.headers.get("etag") ?? "";
        // Headers that are not CORS-safelisted: the browser asks the API first (a preflight).
        const again = await fetch(target, {
          headers: { "If-None-Match": etag, "Cache-Control": "no-cache" },
        });
        const since = await fetch(target, {
          headers: { "If-Modified-Since": new Date(0).toUTCString(), Accept: "text/csv" },
        });
        return {
          status: response.status,
          paging: names.map((name) => response.headers.get(name)),
          etag: /^".+"$/.test(etag),
          records: records.length,
          revalidated: [again.status, again.headers.get("etag") === etag],
          csv: [
            since.status,
            since.headers.get("x-total-count"),
            (await since.text()).split("\r\n")[0]?.split(",")[0],
          ],
          hidden: response.headers.get("content-security-policy"), // not exposed: a script reads only what CORS exposes
        };
      }, api.origin);
      expect(seen).toEqual({
        status: 200,
        paging: ["2", "10", "600", "60"],
        etag: true,
        records: 10,
        revalidated: [304, true],
        csv: [200, "600", "Name"],
        hidden: null,
      });
    } finally {
      await context.close();
    }
  });

  it("a page of another origin reads why an endpoint is not served, even with a revalidating request", async () => {
    const { context, page } = await openPage();
    try {
      await page.goto(`${otherOrigin}/`);
      const seen = await page.evaluate(async (origin) => {
        const answers = [];
        for (const path of ["/ch/FullTextSearch", "/ch/Strets"]) {
          const response = await fetch(`${origin}${path}`, { headers: { "If-None-Match": '"x"' } });
          answers.push([response.status, ((await response.json()) as { detail: string }).detail]);
        }
        return answers;
      }, api.origin);
      expect(seen).toEqual([
        [
          404,
          expect.stringMatching(
            /^This build does not serve \/ch\/FullTextSearch: there is no street data/,
          ),
        ],
        [404, "There is no resource at '/ch/Strets'."],
      ]);
    } finally {
      await context.close();
    }
  });

  it.each(WIDTHS)(
    "at %i px: no horizontal overflow, the form on the first screen, disabled fields marked; screenshot",
    async (width) => {
      const { context, page, problems } = await openPage({ width });
      try {
        await page.goto(`${api.origin}/`);
        const overflow = () =>
          page.evaluate(
            "({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth })",
          );
        expect(await overflow()).toEqual({ scroll: width, client: width });
        const form = await page.locator("#try-form").boundingBox();
        expect(form?.y ?? Infinity, "the try-it form starts on the first screen").toBeLessThan(
          page.viewportSize()?.height ?? 0,
        );
        expect(form?.x ?? -1).toBeGreaterThanOrEqual(0);
        expect((form?.x ?? 0) + (form?.width ?? Infinity)).toBeLessThanOrEqual(width);

        // /de/Streets takes a locality, not a key: the key field is disabled, and looks it.
        await page.getByLabel("Endpoint", { exact: true }).selectOption("/de/Streets");
        /** How an input and its label look: the browser's computed style (the page's own stylesheet). */
        const look = (id: string) =>
          page.evaluate(`(() => {
          const input = document.getElementById(${JSON.stringify(id)});
          const label = document.querySelector('label[for="${id}"]');
          return { border: getComputedStyle(input).borderTopStyle, background: getComputedStyle(input).backgroundColor, note: getComputedStyle(label, "::after").content };
        })()`) as Promise<{ border: string; background: string; note: string }>;
        const [enabled, disabled] = [await look("try-locality"), await look("try-key")];
        expect(await page.locator("#try-key").isDisabled()).toBe(true);
        expect(enabled.border).toBe("solid");
        expect(disabled.border).toBe("dashed");
        expect(disabled.background).not.toBe(enabled.background);
        expect(enabled.note).toBe("none");
        expect(disabled.note).toBe('" (not used by this endpoint)"');

        // The records of a response, the widest part of the page, stay within it too.
        await page.getByLabel("Locality", { exact: true }).fill("Berlin");
        expect(await submit(page)).toMatch(/^HTTP 200/);
        await page.evaluate('document.querySelector("#endpoints details").open = true');
        expect(await overflow()).toEqual({ scroll: width, client: width });

        mkdirSync(RESULTS, { recursive: true });
        const file = join(RESULTS, `docs-${width}.png`);
        // The first screen: the whole page (390 × 56,612 px, 1280 × 29,124 px) took 11.5 and 13.3 s
        // to take and encode (load 5-7), against 0.3 s; nothing reads it but a person, and the
        // overflow checks above lay out the whole page. PLZ_SCREENSHOT=full takes the whole page.
        await page.screenshot({ path: file, fullPage: process.env["PLZ_SCREENSHOT"] === "full" });
        expect(statSync(file).size).toBeGreaterThan(10_000);
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    },
  );

  it.each(WIDTHS)(
    "without JavaScript at %i px: the endpoints, examples and sources are there, and the form is replaced by a note",
    async (width) => {
      const { context, page } = await openPage({ javaScriptEnabled: false, width });
      try {
        await page.goto(`${api.origin}/`);
        expect(await page.evaluate("document.documentElement.scrollWidth")).toBe(width);
        // This build has no Swiss street directory: every other resource is there.
        const served = RESOURCES.filter((r) => !OPTIONAL_RESOURCES.includes(r));
        expect(await page.locator("#endpoints > .scroll > table > tbody > tr").count()).toBe(
          served.length,
        );
        // The heading is "GET {path} {title}": match the path exactly (/de/FederalStates is a prefix of other paths).
        for (const resource of served)
          expect(
            await page
              .getByRole("heading", {
                name: new RegExp(`^GET ${resource.path.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")} `),
              })
              .count(),
            resource.path,
          ).toBe(1);
        expect(await page.locator("#try-nojs").isVisible()).toBe(true);
        expect(await page.locator("#try-form").isHidden()).toBe(true);
        expect(await page.locator("#sources").textContent()).toContain(
          "© OpenStreetMap contributors",
        );
        await page.keyboard.press("Tab");
        expect(await page.evaluate("document.activeElement.textContent")).toBe(
          "Skip to the content",
        );
      } finally {
        await context.close();
      }
    },
  );
});

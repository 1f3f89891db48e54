import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { pagePath } from "../../generator/contract/address.ts";
import { listHeaderRules, pageHeaderRules } from "../../generator/contract/header-rules.ts";
import {
  commonHeaders,
  MAX_HEADER_RULES,
  parseHeadersFile,
} from "../../generator/contract/headers.ts";
import { ROOT } from "../support/paths.ts";

describe("_headers", () => {
  it("the project's file has the catch-all rule with CORS and the security headers", () => {
    const names = commonHeaders(readFileSync(`${ROOT}/_headers`, "utf8")).map(([name]) =>
      name.toLowerCase(),
    );
    for (const name of [
      "access-control-allow-origin",
      "access-control-expose-headers",
      "content-security-policy",
      "permissions-policy",
      "referrer-policy",
      "strict-transport-security",
      "x-content-type-options",
      "x-frame-options",
    ]) {
      expect(names).toContain(name);
    }
  });

  it("generated page rules use placeholders none of which is a prefix of another", () => {
    const parsed = parseHeadersFile(`${pageHeaderRules()}\n${listHeaderRules()}`);
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.rules.length).toBeLessThan(MAX_HEADER_RULES);
    for (const rule of parsed.rules.filter((r) => r.pattern.includes(":"))) {
      const names = [...rule.pattern.matchAll(/:([a-z]+)/g)].map((m) => m[1] ?? "");
      for (const a of names)
        for (const b of names) if (a !== b) expect(b.startsWith(a), `${a} / ${b}`).toBe(false);
      for (const [, value] of rule.headers)
        for (const used of value.matchAll(/:([a-z]+)/g)) expect(names).toContain(used[1]);
    }
  });

  it("a page path matches its rule's pattern segment for segment", () => {
    const path = pagePath({
      resource: "de.streets",
      slug: "berlin",
      total: 11920,
      pageSize: 10,
      page: 2,
      format: "json",
    });
    expect(path).toBe("/_p/de.streets/berlin/11920/10/1192/2.json");
    const pattern = pageHeaderRules().split("\n")[0] ?? "";
    const regex = new RegExp(`^${pattern.replace(/\./g, "\\.").replace(/:[a-z]+/g, "([^/]+)")}$`);
    expect(regex.exec(path)?.slice(1)).toEqual([
      "de.streets",
      "berlin",
      "11920",
      "10",
      "1192",
      "2",
    ]);
  });

  it.each([
    ["  X-A: 1\n", /before any URL pattern/],
    ["/*\n  no colon\n", /expected 'Name: value'/],
    [`/*\n  X: ${"a".repeat(2000)}\n`, /longer than 2000/],
    [Array.from({ length: 101 }, (_, i) => `/r${i}\n  X: 1`).join("\n"), /at most 100/],
  ])("rejects %#", (text, message) => {
    const parsed = parseHeadersFile(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.message).toMatch(message);
  });
});

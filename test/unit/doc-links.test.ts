import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/paths.ts";

/** The project's Markdown: the README, the docs and the data's provenance. */
const documents = [
  "README.md",
  "data/README.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];

/** The heading anchors GitHub derives for a Markdown file. */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  for (const [, heading] of text.matchAll(/^#{1,6} +(.+)$/gm))
    anchors.add(
      (heading ?? "")
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N} _-]/gu, "")
        .replace(/ /g, "-"),
    );
  return anchors;
}

describe("the documentation's links", () => {
  it.each(documents)("%s links only to files and headings that exist", (document) => {
    const text = readFileSync(join(ROOT, document), "utf8").replace(/```[\s\S]*?```/g, "");
    const broken: string[] = [];
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (target === undefined || /^[a-z]+:/i.test(target)) continue;
      const [path = "", anchor] = target.split("#");
      const file = path === "" ? join(ROOT, document) : resolve(ROOT, dirname(document), path);
      if (!existsSync(file)) broken.push(target);
      else if (anchor !== undefined && file.endsWith(".md"))
        if (!anchorsOf(readFileSync(file, "utf8")).has(anchor)) broken.push(target);
    }
    expect(broken).toEqual([]);
  });
});

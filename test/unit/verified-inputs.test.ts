import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../support/fixture.ts";
import { importClosure, inputsDigest } from "../support/verified-inputs.ts";

/** The inputs a stamped suite (search-tables.test.ts) is verified on: every module it reaches, and no more. */
describe("a test file's inputs", () => {
  it.each([
    ["a static import", `import { b } from "./b.ts";`, ["a.ts", "b.ts"], []],
    [
      "a type-only import over lines",
      `import type {\n  B,\n} from "./b.ts";`,
      ["a.ts", "b.ts"],
      [],
    ],
    ["a re-export", `export { b } from "./b.ts";`, ["a.ts", "b.ts"], []],
    ["a dynamic import", `const b = await import("./b.ts");`, ["a.ts", "b.ts"], []],
    [
      "a package and a scoped package's subpath",
      `import x from "pkg";\nimport y from "@s/p/sub";`,
      ["a.ts"],
      ["pkg", "@s/p"],
    ],
    ["Node's modules are no package", `import { readFileSync } from "node:fs";`, ["a.ts"], []],
    ["an import in a comment is none", `/**\n * import { b } from "./b.ts";\n */`, ["a.ts"], []],
    ["a string constant is none", `export const FILES = ["de/x.csv"];`, ["a.ts"], []],
    ["an import of an import", `import "./c.ts";`, ["a.ts", "c.ts", "b.ts"], []],
  ])("%s", (_, source, files, packages) => {
    const dir = tempDir("closure");
    writeFileSync(join(dir, "b.ts"), "export const b = 1;\n");
    writeFileSync(join(dir, "c.ts"), `export * from "./b.ts";\n`);
    writeFileSync(join(dir, "a.ts"), `${source}\n`);
    const closure = importClosure(join(dir, "a.ts"));
    expect([...closure.files].sort()).toEqual(files.map((file) => join(dir, file)).sort());
    expect([...closure.packages].sort()).toEqual([...packages].sort());
  });

  it("a digest is the same for the same inputs and differs with another data file", () => {
    const entry = "test/unit/search-tables.test.ts";
    const digest = inputsDigest(entry, ["data/de/streets-berlin.csv"]);
    expect(inputsDigest(entry, ["data/de/streets-berlin.csv"])).toBe(digest);
    expect(inputsDigest(entry, ["data/de/streets-openplz-sample.csv"])).not.toBe(digest);
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
  });
});

import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { ROOT } from "./paths.ts";

/**
 * A digest of everything a deterministic test file's outcome depends on: the bytes of the file and
 * of every module it imports, directly or through others (relative imports, followed), the
 * installed version of every package among them, and the data files named. A suite whose digest
 * equals the one committed beside it was verified on exactly these inputs, and would verify again.
 */
export function inputsDigest(entry: string, dataFiles: readonly string[]): string {
  const modules = importClosure(resolve(ROOT, entry));
  const hash = createHash("sha256");
  for (const file of [...modules.files, ...dataFiles.map((f) => resolve(ROOT, f))].sort())
    hash
      .update(`${relative(ROOT, file)}\u0000`)
      .update(readFileSync(file))
      .update("\u0000");
  for (const name of [...modules.packages].sort())
    hash.update(`${name}@${packageVersion(name)}\u0000`);
  return hash.digest("hex");
}

/**
 * Static imports and re-exports at the start of a line (so none in a comment), type-only ones too,
 * and dynamic imports of a literal.
 */
const SPECIFIER =
  /^\s*(?:import\b[^"';]*?(?:\bfrom\s*)?|export\b[^"';]*?\bfrom\s*)["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/gm;

/** The project's files an entry imports, itself included, and the packages among their imports. */
export function importClosure(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const pending = [entry];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (files.has(file)) continue;
    files.add(file);
    for (const [, line, dynamic] of readFileSync(file, "utf8").matchAll(SPECIFIER)) {
      const specifier = line ?? dynamic ?? "";
      if (specifier.startsWith(".")) pending.push(resolve(dirname(file), specifier));
      else if (!specifier.startsWith("node:")) packages.add(packageName(specifier));
    }
  }
  return { files, packages };
}

/** `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
function packageName(specifier: string): string {
  const parts = specifier.split("/");
  return parts.slice(0, specifier.startsWith("@") ? 2 : 1).join("/");
}

function packageVersion(name: string): string {
  const manifest = JSON.parse(
    readFileSync(join(ROOT, "node_modules", name, "package.json"), "utf8"),
  ) as { version?: string };
  return manifest.version ?? "?";
}

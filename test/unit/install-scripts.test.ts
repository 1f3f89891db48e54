import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/paths.ts";

/**
 * npm runs a dependency's install script only when package.json approves it (`allowScripts`): npm
 * 11 warns about the others, npm 12 skips them. Every package of the lockfile with an install
 * script must be approved by name (the lockfile has no `resolved` URLs, so pinned `name@version`
 * keys would never match), and nothing else. `.ci/install` checks the real `npm ci` output too.
 */
describe("allowScripts", () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
    allowScripts?: Record<string, boolean>;
  };
  const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as {
    packages: Record<string, { hasInstallScript?: boolean }>;
  };
  const withScripts = [
    ...new Set(
      Object.entries(lock.packages).flatMap(([path, entry]) =>
        entry.hasInstallScript === true
          ? [path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length)]
          : [],
      ),
    ),
  ].sort();

  it("approves by name exactly the packages of the lockfile that have install scripts", () => {
    expect(withScripts.length).toBeGreaterThan(0);
    expect(Object.keys(pkg.allowScripts ?? {}).sort()).toEqual(withScripts);
    expect(Object.values(pkg.allowScripts ?? {}).every((approved) => approved)).toBe(true);
  });

  it("CI installs with --strict-allow-scripts and fails on a warning about them", () => {
    const install = readFileSync(join(ROOT, ".ci/install"), "utf8");
    expect(install).toMatch(/ci --no-audit --no-fund --strict-allow-scripts/);
    expect(install).toMatch(/grep -q 'install-scripts'/);
    expect(readFileSync(join(ROOT, ".ci/run"), "utf8")).toMatch(/^bash \.ci\/install$/m);
  });
});

import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { COMPILED_CLI, ROOT } from "./paths.ts";

/** One temporary root for the whole run (inherited by the test workers), removed at the end. */
export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), "plz-test-"));
  process.env["PLZ_TEST_TMP"] = root;
  // The CLI the tests spawn (paths.ts), compiled before any of them starts: test files running at
  // once would otherwise each compile it and replace .cache/cli/ under another's running CLI.
  const compiled = spawnSync(process.execPath, [COMPILED_CLI, "--version"], {
    cwd: ROOT,
    encoding: "utf8",
  });
  if (compiled.status !== 0)
    throw new Error(`cannot compile the CLI (${COMPILED_CLI}): ${compiled.stderr}`);
  return () => {
    if (process.platform === "win32") return rmSync(root, { recursive: true, force: true });
    // The run's builds leave hundreds of thousands of files: removing them took minutes after the
    // last test on a busy machine. A detached rm removes them after vitest exits (the next run
    // makes a root of its own).
    spawn("rm", ["-rf", root], { detached: true, stdio: "ignore" }).unref();
  };
}

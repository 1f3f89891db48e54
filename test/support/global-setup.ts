import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** One temporary root for the whole run (inherited by the test workers), removed at the end. */
export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), "plz-test-"));
  process.env["PLZ_TEST_TMP"] = root;
  return () => {
    if (process.platform === "win32") return rmSync(root, { recursive: true, force: true });
    // The run's builds leave hundreds of thousands of files: removing them took minutes after the
    // last test on a busy machine. A detached rm removes them after vitest exits (the next run
    // makes a root of its own).
    spawn("rm", ["-rf", root], { detached: true, stdio: "ignore" }).unref();
  };
}

import { spawn, spawnSync } from "node:child_process";
import { accessSync, constants, mkdtempSync, rmSync, statfsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { COMPILED_CLI, ROOT } from "./paths.ts";

/** A RAM file system with at least this much room takes the run's files (a whole run wrote 1.7 GB at most). */
const RAM_ROOM = 4 * 2 ** 30;

/**
 * Where the run's temporary root goes: /dev/shm when it has room, unless TMPDIR names a place.
 * On ext4 without a journal (the CI machines), a file created within minutes of a mass deletion
 * waits while the allocator passes over every inode freed since (it keeps them from reuse for up
 * to five minutes), and the run deletes its own builds as it goes: fresh clones' vitest took 143.4
 * and 140.7 s with the files in /dev/shm, 160.4 and 170.6 s on the disk (docs/TESTING.md).
 */
export function scratchParent(): string {
  if ((process.env["TMPDIR"] ?? "") !== "") return tmpdir();
  try {
    const { bavail, bsize } = statfsSync("/dev/shm");
    accessSync("/dev/shm", constants.W_OK);
    if (bavail * bsize >= RAM_ROOM) return "/dev/shm";
  } catch {
    // No /dev/shm (macOS, Windows) or not writable: the system's temporary directory.
  }
  return tmpdir();
}

/**
 * One temporary root for the whole run, removed at the end. The test workers and every process
 * they start inherit it as PLZ_TEST_TMP and as TMPDIR, so whatever asks `os.tmpdir()` (a CLI
 * build's scratch, wrangler, a test's own `mkdtemp`) writes there too.
 */
export default function setup(): () => void {
  const root = mkdtempSync(join(scratchParent(), "plz-test-"));
  process.env["PLZ_TEST_TMP"] = root;
  process.env["TMPDIR"] = root;
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

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** One temporary root for the whole run (inherited by the test workers), removed at the end. */
export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), "plz-test-"));
  process.env["PLZ_TEST_TMP"] = root;
  return () => rmSync(root, { recursive: true, force: true });
}

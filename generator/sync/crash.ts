/**
 * The fault test's hook: with `PLZ_SYNC_KILL_AT=n` in the environment, the sync kills itself with
 * SIGKILL (as `kill -9` would, no cleanup) at its n-th checkpoint; `PLZ_SYNC_KILL_AT=count` prints
 * how many it passed, on stderr at exit. Checkpoints sit between every step that writes: rows,
 * statements, commits. Without the variable a checkpoint is one comparison.
 */
const setting = process.env["PLZ_SYNC_KILL_AT"];
const killAt = setting === undefined || setting === "count" ? undefined : Number(setting);
let passed = 0;

if (setting === "count")
  process.on("exit", () => process.stderr.write(`sync checkpoints: ${passed}\n`));

export function checkpoint(): void {
  passed++;
  if (passed === killAt) process.kill(process.pid, "SIGKILL");
}

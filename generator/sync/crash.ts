/**
 * The fault test's hook: with `PLZ_SYNC_KILL_AT=n` in the environment, the sync kills itself with
 * SIGKILL (as `kill -9` would, no cleanup) at its n-th checkpoint. Checkpoints sit between the
 * steps that write: each row loaded, each record changed, each index, before and after
 * each commit. Without the variable a checkpoint is a counter.
 */
const setting = process.env["PLZ_SYNC_KILL_AT"];
const killAt = setting === undefined ? undefined : Number(setting);
let passed = 0;

export function checkpoint(): void {
  passed++;
  if (passed === killAt) process.kill(process.pid, "SIGKILL");
}

/** How many checkpoints this process passed (the fault test counts a run's in-process). */
export function checkpointsPassed(): number {
  return passed;
}

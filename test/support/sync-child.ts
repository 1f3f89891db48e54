/**
 * A sync in a process of its own, for the fault test to kill: `node --import tsx sync-child.ts
 * FROM DB` (with `PLZ_SYNC_KILL_AT=n`, it kills itself at its n-th checkpoint). Only the sync is
 * loaded, not the whole command line, so each process starts in a fraction of a second.
 */
import { sync } from "../../generator/sync/sync.ts";

const [from = "", db = ""] = process.argv.slice(2);
const summary = await sync({ from, db });
process.stdout.write(`${summary.action} ${summary.builtAt}\n`);

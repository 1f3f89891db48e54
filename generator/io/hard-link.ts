import { linkSync } from "node:fs";

/** Hard-links `target` to `existing`; false when that cannot be done (the old file gone, another file system): write it instead. */
export function hardLink(existing: string, target: string): boolean {
  try {
    linkSync(existing, target);
    return true;
  } catch {
    return false;
  }
}

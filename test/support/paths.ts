import { resolve } from "node:path";

export const ROOT = resolve(import.meta.dirname, "../..");
export const dataFile = (path: string) => resolve(ROOT, "data", path);

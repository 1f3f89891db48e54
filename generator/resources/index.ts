import { atFederalProvinces, chCantons, liCommunes } from "./at-ch-li.ts";
import { federalStates, streets } from "./de.ts";
import type { AnyResource } from "./resource.ts";

/** Every served resource; the Worker routes over this list and the generator renders it. */
export const RESOURCES: readonly AnyResource[] = [streets, federalStates, atFederalProvinces, chCantons, liCommunes];

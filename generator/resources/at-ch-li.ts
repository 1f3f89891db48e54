import type { AtFederalProvince, ChCanton, LiCommune } from "../sources/lists.ts";
import type { Resource } from "./resource.ts";

const unpaged = { paged: false, filters: [], unservedFilters: [] } as const;

/** Numeric keys of different lengths ("2" < "10") sort by length first. */
const numericKey = (key: string) => key.padStart(8, "0");

export const atFederalProvinces: Resource<AtFederalProvince> = {
  id: "at.federalprovinces",
  path: "/at/FederalProvinces",
  title: "Austrian federal provinces",
  query: unpaged,
  sortKey: (p) => numericKey(p.key),
  columns: [
    { header: "Key", value: (p) => p.key },
    { header: "Name", value: (p) => p.name },
  ],
};

export const chCantons: Resource<ChCanton> = {
  id: "ch.cantons",
  path: "/ch/Cantons",
  title: "Swiss cantons",
  query: unpaged,
  sortKey: (c) => numericKey(c.key),
  columns: [
    { header: "Key", value: (c) => c.key },
    { header: "Name", value: (c) => c.name },
    { header: "ShortName", value: (c) => c.shortName },
  ],
};

export const liCommunes: Resource<LiCommune> = {
  id: "li.communes",
  path: "/li/Communes",
  title: "Communes of Liechtenstein",
  query: unpaged,
  sortKey: (c) => numericKey(c.key),
  columns: [
    { header: "Key", value: (c) => c.key },
    { header: "Name", value: (c) => c.name },
    { header: "ElectoralDistrict", value: (c) => c.electoralDistrict },
  ],
};

import { BFS, OPENPLZ_DATA, STATISTIK_AUSTRIA } from "./credits.ts";
import { numericKey } from "./collation.ts";
import { UNPAGED, type RequestExample, type Resource } from "./resource.ts";
import { recordSchema } from "./schema.ts";

export interface AtFederalProvince {
  readonly key: string;
  readonly name: string;
}
export interface ChCanton {
  readonly key: string;
  readonly historicalCode: string;
  readonly name: string;
  readonly shortName: string;
}
export interface LiCommune {
  readonly key: string;
  readonly name: string;
  readonly electoralDistrict: string;
}

/** A whole list in either format. */
const listExamples = (what: string): readonly RequestExample[] => [
  { summary: `All ${what} as JSON`, query: {} },
  { summary: `All ${what} as CSV`, query: { format: "csv" } },
];

export const atFederalProvinces: Resource<AtFederalProvince> = {
  id: "at.federalprovinces",
  path: "/at/FederalProvinces",
  title: "Austrian federal provinces",
  description: "The 9 federal provinces (Bundesländer) of Austria, ordered by key.",
  query: UNPAGED,
  sortKey: (p) => [numericKey(p.key)],
  record: recordSchema<AtFederalProvince>(
    "FederalProvince",
    "An Austrian federal province (Bundesland).",
    {
      key: { description: "Federal province key, one digit.", pattern: "^[1-9]$", example: "9" },
      name: { description: "Federal province name.", example: "Wien" },
    },
  ),
  examples: listExamples("Austrian federal provinces"),
  credits: [STATISTIK_AUSTRIA],
};

export const chCantons: Resource<ChCanton> = {
  id: "ch.cantons",
  path: "/ch/Cantons",
  title: "Swiss cantons",
  description:
    "The 26 cantons of Switzerland with their two-letter abbreviation, ordered as the original orders them: by the canton number as text (1, 10, 11, …, 19, 2, 20, …, 26, 3, …, 9).",
  query: UNPAGED,
  // The original's ORDER BY "Key" is on a text column: "10" before "2".
  sortKey: (c) => [c.key],
  record: recordSchema<ChCanton>("Canton", "A Swiss canton.", {
    key: {
      description: "Canton number (BFS), one or two digits.",
      pattern: "^[0-9]{1,2}$",
      example: "1",
    },
    historicalCode: {
      description:
        "The canton's historical number in the BFS register: the canton number (the register gives cantons no other; districts refer to their canton by it).",
      pattern: "^[0-9]{1,2}$",
      example: "1",
    },
    name: { description: "Canton name.", example: "Zürich" },
    shortName: {
      description: "Two-letter canton abbreviation.",
      pattern: "^[A-Z]{2}$",
      example: "ZH",
    },
  }),
  examples: listExamples("Swiss cantons"),
  credits: [BFS],
};

export const liCommunes: Resource<LiCommune> = {
  id: "li.communes",
  path: "/li/Communes",
  title: "Communes of Liechtenstein",
  description:
    "The 11 communes (Gemeinden) of Liechtenstein with their electoral district, ordered by key.",
  query: UNPAGED,
  sortKey: (c) => [numericKey(c.key)],
  record: recordSchema<LiCommune>("LiCommune", "A commune of Liechtenstein.", {
    key: {
      description: "Commune number (BFS), 7001 to 7011.",
      pattern: "^70[0-9]{2}$",
      example: "7001",
    },
    name: { description: "Commune name.", example: "Vaduz" },
    electoralDistrict: {
      description: "Electoral district: Oberland or Unterland.",
      example: "Oberland",
    },
  }),
  examples: listExamples("communes of Liechtenstein"),
  credits: [OPENPLZ_DATA],
};

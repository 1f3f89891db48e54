/**
 * Where the embedded data comes from and how it must be credited (see data/README.md). Each
 * resource lists the credits of the sources its records are made of; the docs page shows them.
 * They describe the default sources: a build from other files (`--source`) needs their credits.
 */
export interface Credit {
  /** The source, as publishers name it. */
  readonly source: string;
  /** The attribution text to show, verbatim. */
  readonly attribution: string;
  readonly licence: string;
  readonly licenceUrl?: string;
  readonly sourceUrl?: string;
  /** Edition or date of the data. */
  readonly asOf: string;
}

export const GEOPORTAL_BERLIN: Credit = {
  source:
    "Geoportal Berlin / Amt für Statistik Berlin-Brandenburg, open data “Adressen Berlin” (derived extract: one row per street, postal code, borough and suburb)",
  attribution: "Geoportal Berlin / Adressen Berlin",
  licence: "the publisher's open-data terms",
  asOf: "2023-06",
};

export const DESTATIS: Credit = {
  source:
    "Statistisches Bundesamt, Gemeindeverzeichnis GV100AD (federal states, districts and municipalities)",
  attribution: "© Statistisches Bundesamt (Destatis)",
  licence: "Datenlizenz Deutschland – Namensnennung – Version 2.0 (dl-de/by-2-0)",
  licenceUrl: "https://www.govdata.de/dl-de/by-2-0",
  asOf: "30.11.2025",
};

export const STATISTIK_AUSTRIA: Credit = {
  source:
    "openmundi list of Austrian districts with their federal provinces (public domain), derived from Statistik Austria",
  attribution: "data © STATISTIK AUSTRIA",
  licence: "CC BY 4.0",
  licenceUrl: "https://creativecommons.org/licenses/by/4.0/",
  asOf: "2015",
};

export const BFS: Credit = {
  source: "Bundesamt für Statistik, historicised commune register (cantons, districts, communes)",
  attribution: "Bundesamt für Statistik BFS",
  licence: "Swiss open government data: free use, the source must be named",
  asOf: "01.01.2026",
};

export const OPENPLZ_DATA: Credit = {
  source: "OpenPLZ API Data (communes of Liechtenstein)",
  attribution: "OpenPLZ API Data, © OpenStreetMap contributors",
  licence: "Open Database License (ODbL) 1.0",
  licenceUrl: "https://opendatacommons.org/licenses/odbl/1-0/",
  sourceUrl: "https://github.com/openpotato/openplzapi.data",
  asOf: "2025",
};

export const OPEN_POSTAL_CODES: Credit = {
  source:
    "Open Postal Codes, German postal codes with their places (post_code.csv), derived from OpenStreetMap",
  attribution: "© OpenStreetMap contributors (Open Postal Codes)",
  licence: "Open Database License (ODbL) 1.0",
  licenceUrl: "https://opendatacommons.org/licenses/odbl/1-0/",
  sourceUrl: "https://github.com/Schoenfeld-Solutions/open-postal-codes",
  asOf: "2026-07",
};

export const SWISSTOPO: Credit = {
  source:
    "swisstopo, official register of localities (Amtliches Ortschaftenverzeichnis) of Switzerland and Liechtenstein",
  attribution: "© swisstopo",
  licence: "Swiss open government data: free use, the source must be named",
  asOf: "2026-04",
};

export const STATISTIK_AUSTRIA_REGISTERS: Credit = {
  source:
    "Statistik Austria, Gemeindeliste (gemliste_knz.csv, 2021) and street directory (gemplzstr, Vorarlberg sample)",
  attribution: "© STATISTIK AUSTRIA",
  licence: "CC BY 4.0",
  licenceUrl: "https://creativecommons.org/licenses/by/4.0/",
  sourceUrl: "https://www.statistik.at/verzeichnis/reglisten/gemliste_knz.csv",
  asOf: "2021 (Gemeindeliste), ≤2022 (streets)",
};

export const SWISSTOPO_STREETS: Credit = {
  source:
    "swisstopo, official street directory (Amtliches Strassenverzeichnis) of Switzerland and Liechtenstein",
  attribution: "© swisstopo",
  licence: "Swiss open government data: free use, the source must be named",
  sourceUrl: "https://data.geo.admin.ch/ch.swisstopo.amtliches-strassenverzeichnis/",
  asOf: "the edition the build read (see the downloads manifest's sources)",
};

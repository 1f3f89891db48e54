/** OpenPLZ's texts for the GV100AD type codes (its `[Display(Name=…)]` values). */
export const DISTRICT_TYPES: Readonly<Record<number, string>> = {
  41: "Kreisfreie Stadt",
  42: "Stadtkreis",
  43: "Kreis",
  44: "Landkreis",
  45: "Regionalverband",
};

export const ASSOCIATION_TYPES: Readonly<Record<number, string>> = {
  51: "Amt",
  52: "Samtgemeinde",
  53: "Verbandsgemeinde",
  54: "Verwaltungsgemeinschaft",
  55: "Kirchspielslandgemeinde",
  56: "Verwaltungsverband",
  57: "VG Trägermodell",
  58: "Erfüllende Gemeinde",
};

/** GV100AD type of an uninhabited area without municipality (Gemeindefreies Gebiet, unbewohnt). */
export const UNINHABITED = 66;

export const MUNICIPALITY_TYPES: Readonly<Record<number, string>> = {
  60: "Markt",
  61: "Kreisfreie Stadt",
  62: "Stadtkreis",
  63: "Stadt",
  64: "Kreisangehörige Gemeinde",
  65: "Gemeindefreies Gebiet (bewohnt)",
  66: "Gemeindefreies Gebiet (unbewohnt)",
  67: "Große Kreisstadt",
};

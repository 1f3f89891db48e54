/** The nested summaries records carry of their parent units (OpenPLZ's `…Summary` DTOs). */
export interface KeyName {
  readonly key: string;
  readonly name: string;
}

export interface KeyNameType extends KeyName {
  readonly type: string;
}

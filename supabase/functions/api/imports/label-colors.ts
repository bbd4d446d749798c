/**
 * Colours for imported labels: Trello's named label colours as the hex Trello shows them (its classic
 * palette, with the `_dark` and `_light` shades it added in 2022), and, for a source that names no
 * colour (a CSV), one picked from a fixed palette by the label's name, so that the same name gets the
 * same colour in every import.
 */

const TRELLO_COLORS: Readonly<Record<string, string>> = {
  green: '#61bd4f',
  yellow: '#f2d600',
  orange: '#ff9f1a',
  red: '#eb5a46',
  purple: '#c377e0',
  blue: '#0079bf',
  sky: '#00c2e0',
  lime: '#51e898',
  pink: '#ff78cb',
  black: '#344563',
  green_dark: '#519839',
  yellow_dark: '#d9b51c',
  orange_dark: '#cd8313',
  red_dark: '#b04632',
  purple_dark: '#89609e',
  blue_dark: '#055a8c',
  sky_dark: '#0098b7',
  lime_dark: '#4bbf6b',
  pink_dark: '#c9558f',
  black_dark: '#091e42',
  green_light: '#b3ecb3',
  yellow_light: '#fce8a0',
  orange_light: '#fdd0a0',
  red_light: '#f5c0b8',
  purple_light: '#dfc0eb',
  blue_light: '#bcd9ea',
  sky_light: '#bcf1f9',
  lime_light: '#b3f1d0',
  pink_light: '#f9c2e4',
  black_light: '#c1c7d0',
};

/** What a label with no colour in Trello is shown as: its grey. */
export const TRELLO_NO_COLOR = '#b3bac5';

/** The hex of a Trello colour name, or null for a name Trello does not have. */
export function trelloColorHex(name: string): string | null {
  return Object.hasOwn(TRELLO_COLORS, name) ? (TRELLO_COLORS[name] ?? null) : null;
}

/** Distinct, readable on white and on dark backgrounds. */
export const LABEL_PALETTE = [
  '#d73a4a',
  '#e99695',
  '#f9a825',
  '#fbca04',
  '#0e8a16',
  '#5cb85c',
  '#006b75',
  '#1d76db',
  '#0052cc',
  '#5319e7',
  '#b60205',
  '#c5def5',
] as const;

/** A colour of LABEL_PALETTE, the same for the same name whatever its case (FNV-1a of the name). */
export function paletteColorFor(name: string): string {
  let hash = 0x811c9dc5;
  for (const char of name.trim().toLowerCase()) {
    hash ^= char.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return LABEL_PALETTE[hash % LABEL_PALETTE.length] ?? LABEL_PALETTE[0];
}

/** Time zones as the browser names them (IANA), for the profile's time zone and its default. */

/** The browser's own time zone, e.g. `Europe/Paris`; null when it cannot say. */
export function browserTimeZone(): string | null {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || null;
  } catch {
    return null;
  }
}

/** Every time zone the browser knows, sorted, with `current` among them even if it does not know it. */
export function timeZoneChoices(current: string | null): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set([...known, ...(current ? [current] : [])])].sort();
}

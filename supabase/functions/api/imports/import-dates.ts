/**
 * Due dates as sources write them, read into `YYYY-MM-DD`. Taken: `2026-12-31`, an ISO timestamp
 * (`2026-12-31T23:30:00Z`, its UTC day; without an offset, the day written), `31/12/2026` and
 * `12/31/2026` (day first unless the first number cannot be a day-of-month's month), `31.12.2026`,
 * `Dec 31, 2026` and `31 Dec 2026`. `a/b/yyyy` with both a and b at most 12 is ambiguous: read day first
 * (as most of the world writes it), with a warning the reader gives.
 */

export type DateReading =
  | { kind: 'date'; date: string }
  | { kind: 'ambiguous'; date: string; alternative: string }
  | { kind: 'invalid' };

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

const FULL_MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

const pad = (value: number, width: number): string => String(value).padStart(width, '0');

/** `YYYY-MM-DD` if the calendar has that day (year 1 to 9999), else null. */
export function calendarDate(year: number, month: number, day: number): string | null {
  if (!Number.isInteger(year) || year < 1 || year > 9999) return null;
  if (!Number.isInteger(month) || month < 1 || month > 12) return null;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const last = month === 2 ? (leap ? 29 : 28) : new Date(Date.UTC(2001, month, 0)).getUTCDate();
  if (!Number.isInteger(day) || day < 1 || day > last) return null;
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
}

const ok = (date: string | null): DateReading => (date ? { kind: 'date', date } : { kind: 'invalid' });

/** The UTC day of an ISO 8601 timestamp with an offset (`Z`, `+02:00`), as Trello writes `due`. */
export function utcDayOf(timestamp: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i.test(timestamp)) return null;
  const time = Date.parse(timestamp);
  if (Number.isNaN(time)) return null;
  const day = new Date(time);
  return calendarDate(day.getUTCFullYear(), day.getUTCMonth() + 1, day.getUTCDate());
}

export function readDate(raw: string): DateReading {
  const text = raw.trim();
  let match = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text);
  if (match) return ok(calendarDate(Number(match[1]), Number(match[2]), Number(match[3])));

  match = /^(\d{4})-(\d{2})-(\d{2})[T ]\d{2}:\d{2}/.exec(text);
  if (match) {
    const hasOffset = /(Z|[+-]\d{2}:?\d{2})$/i.test(text);
    if (hasOffset) return ok(utcDayOf(text.replace(' ', 'T')));
    return ok(calendarDate(Number(match[1]), Number(match[2]), Number(match[3])));
  }

  match = /^(\d{1,2})[/-](\d{1,2})[/-](\d{4})$/.exec(text);
  if (match) return slashDate(Number(match[1]), Number(match[2]), Number(match[3]));

  match = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/.exec(text);
  if (match) return ok(calendarDate(Number(match[3]), Number(match[2]), Number(match[1])));

  match = /^([a-z]{3,9})\.? (\d{1,2})(?:st|nd|rd|th)?,? (\d{4})$/i.exec(text);
  if (match) return ok(calendarDate(Number(match[3]), monthNumber(match[1] ?? ''), Number(match[2])));

  match = /^(\d{1,2}) ([a-z]{3,9})\.?,? (\d{4})$/i.exec(text);
  if (match) return ok(calendarDate(Number(match[3]), monthNumber(match[2] ?? ''), Number(match[1])));

  return { kind: 'invalid' };
}

function monthNumber(name: string): number {
  const lower = name.toLowerCase();
  const index = MONTHS.indexOf(lower.slice(0, 3));
  if (index < 0) return 0;
  // "Sept" is written too; anything else longer than three letters must be the month's full name.
  return lower.length === 3 || FULL_MONTHS[index] === lower || lower === 'sept' ? index + 1 : 0;
}

function slashDate(first: number, second: number, year: number): DateReading {
  const dayFirst = calendarDate(year, second, first);
  const monthFirst = calendarDate(year, first, second);
  if (dayFirst && monthFirst && dayFirst !== monthFirst) {
    return { kind: 'ambiguous', date: dayFirst, alternative: monthFirst };
  }
  return ok(dayFirst ?? monthFirst);
}

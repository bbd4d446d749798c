import { describe, expect, it } from 'vitest';
import { readDate, utcDayOf } from './import-dates.ts';

describe('readDate', () => {
  it.each([
    ['2026-12-31', '2026-12-31'],
    ['2026-2-3', '2026-02-03'],
    ['2026-12-31T10:00', '2026-12-31'],
    ['2026-12-31T23:30:00Z', '2026-12-31'],
    ['2027-01-01T01:00:00+02:00', '2026-12-31'],
    ['31/12/2026', '2026-12-31'],
    ['12/31/2026', '2026-12-31'],
    ['13/1/2026', '2026-01-13'],
    ['31.12.2026', '2026-12-31'],
    ['Dec 31, 2026', '2026-12-31'],
    ['December 31 2026', '2026-12-31'],
    ['Sept 3, 2026', '2026-09-03'],
    ['31 Dec 2026', '2026-12-31'],
    ['29/02/2024', '2024-02-29'],
  ])('reads %s as %s', (text, date) => {
    expect(readDate(text)).toEqual({ kind: 'date', date });
  });

  it('reads a/b/yyyy with both at most 12 day first, and says it is ambiguous', () => {
    expect(readDate('03/04/2026')).toEqual({
      kind: 'ambiguous',
      date: '2026-04-03',
      alternative: '2026-03-04',
    });
    expect(readDate('04/04/2026')).toEqual({ kind: 'date', date: '2026-04-04' });
  });

  it.each(['', 'soon', '2026-02-30', '29/02/2025', '32/01/2026', 'Foo 3, 2026', '0000-01-01', '2026-13-01'])(
    'refuses %j',
    (text) => {
      expect(readDate(text)).toEqual({ kind: 'invalid' });
    },
  );

  it('takes the UTC day of a timestamp only when it has an offset', () => {
    expect(utcDayOf('2026-06-30T22:00:00.000-03:00')).toBe('2026-07-01');
    expect(utcDayOf('2026-06-30')).toBeNull();
  });
});

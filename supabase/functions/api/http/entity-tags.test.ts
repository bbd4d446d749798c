import { describe, expect, it } from 'vitest';
import { etagOf, parseEntityTagCondition, strongVersionsOf, weaklyMatches } from './entity-tags.ts';

describe('entity tags', () => {
  it('are strong tags of the version', () => {
    expect(etagOf(7)).toBe('"7"');
  });

  it.each([
    ['*', { any: true }],
    [' * ', { any: true }],
    ['"3"', { any: false, tags: [{ weak: false, opaque: '3' }] }],
    ['W/"3"', { any: false, tags: [{ weak: true, opaque: '3' }] }],
    [
      '"1", W/"2",\t"3"',
      {
        any: false,
        tags: [
          { weak: false, opaque: '1' },
          { weak: true, opaque: '2' },
          { weak: false, opaque: '3' },
        ],
      },
    ],
    // RFC 9110 §5.6.1: recipients accept empty list elements; a comma may sit inside a tag.
    [
      ', "1",, "a,b" ,',
      {
        any: false,
        tags: [
          { weak: false, opaque: '1' },
          { weak: false, opaque: 'a,b' },
        ],
      },
    ],
    ['""', { any: false, tags: [{ weak: false, opaque: '' }] }],
  ])('parse %j', (value, condition) => {
    expect(parseEntityTagCondition(value)).toEqual(condition);
  });

  it.each([
    ['an unquoted version', '3'],
    ['an unterminated tag', '"3'],
    ['a lowercase weak prefix', 'w/"3"'],
    ['a star in a list', '*, "3"'],
    ['two tags without a comma', '"1" "2"'],
    ['a quote inside a tag', '"a"b"'],
    ['an empty value', ''],
    ['only commas', ' , ,'],
  ])('refuse %s', (_name, value) => {
    expect(parseEntityTagCondition(value)).toBeUndefined();
  });

  // Runs of blanks once made the pattern backtrack quadratically: 64 KB of them took seconds.
  it.each([
    ['blanks, then a stray character', `${' '.repeat(65_536)}x`],
    ['tabs, then a stray character', `${'\t'.repeat(65_536)}x`],
    ['a tag, blanks, then a stray character', `"1"${' '.repeat(65_536)}x`],
    ['a tag, a comma, blanks, then a stray character', `"1",${' '.repeat(65_536)}x`],
    ['blanks and commas, then a stray character', `${' ,'.repeat(32_768)}x`],
  ])('refuse 64 KB of %s in linear time', (_name, value) => {
    const started = performance.now();
    expect(parseEntityTagCondition(value)).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(200);
  });

  it('parse 64 KB of tags and blanks in linear time', () => {
    const value = `${'"1" \t, '.repeat(8_192)}W/"2"`;
    const started = performance.now();
    const condition = parseEntityTagCondition(value);
    expect(performance.now() - started).toBeLessThan(200);
    expect(condition && !condition.any && condition.tags.length).toBe(8_193);
  });

  it('name versions under strong comparison only', () => {
    const condition = parseEntityTagCondition('"4", W/"5", "x", "007", "99999999999", "0"');
    expect(condition && !condition.any && strongVersionsOf(condition.tags)).toEqual([4, 0]);
  });

  it('match If-None-Match by weak comparison', () => {
    const condition = parseEntityTagCondition('W/"5", "6"');
    expect(condition && weaklyMatches(condition, 5)).toBe(true);
    expect(condition && weaklyMatches(condition, 6)).toBe(true);
    expect(condition && weaklyMatches(condition, 7)).toBe(false);
    expect(weaklyMatches({ any: true }, 1)).toBe(true);
  });
});

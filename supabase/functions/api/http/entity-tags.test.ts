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

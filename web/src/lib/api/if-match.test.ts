import { describe, expect, it } from 'vitest';
// The header must read on the server as the version it names, so the test asks the API's own parser.
// eslint-disable-next-line no-restricted-imports -- a test, not shipped code
import { parseEntityTagCondition, strongVersionsOf } from '@api/http/entity-tags.ts';
import { entityTagOf, ifMatch } from './if-match.ts';

describe('ifMatch', () => {
  it('names the version as the strong entity tag the API sends in ETag', () => {
    expect(ifMatch({ version: 7 })).toEqual({ 'If-Match': '"7"' });
    expect(entityTagOf(0)).toBe('"0"');
  });

  it('reads on the server as a strong match on that very version', () => {
    const condition = parseEntityTagCondition(ifMatch({ version: 42 })['If-Match']);

    expect(condition).toEqual({ any: false, tags: [{ weak: false, opaque: '42' }] });
    expect(condition && !condition.any && strongVersionsOf(condition.tags)).toEqual([42]);
  });

  it('refuses what cannot be a version rather than send a condition that never matches', () => {
    expect(() => entityTagOf(-1)).toThrow(RangeError);
    expect(() => entityTagOf(1.5)).toThrow(RangeError);
    expect(() => entityTagOf(Number.NaN)).toThrow(RangeError);
  });
});

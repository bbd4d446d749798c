import { describe, expect, test } from 'vitest';
import { topicsOf, typesInUnsubscribeToken } from './notification-types.ts';

const tokenFor = (payload: unknown) =>
  `${Buffer.from(JSON.stringify(payload)).toString('base64url')}.c2lnbmF0dXJl`;

describe('typesInUnsubscribeToken', () => {
  test('reads the types of the payload, without checking the signature', () => {
    expect(typesInUnsubscribeToken(tokenFor({ v: 1, u: 'someone', t: ['mentioned', 'assigned'] }))).toEqual([
      'mentioned',
      'assigned',
    ]);
  });

  test('a payload that cannot be read names nothing', () => {
    expect(typesInUnsubscribeToken('not a token')).toBeUndefined();
    expect(typesInUnsubscribeToken(tokenFor({ v: 1, u: 'someone', t: [] }))).toBeUndefined();
    expect(typesInUnsubscribeToken(tokenFor({ v: 1, t: ['nonsense'] }))).toBeUndefined();
    expect(typesInUnsubscribeToken('')).toBeUndefined();
  });
});

describe('topicsOf', () => {
  test('joins the topics as a sentence does', () => {
    expect(topicsOf(['mentioned'])).toBe('mentions');
    expect(topicsOf(['mentioned', 'assigned'])).toBe('mentions and assignments');
    expect(topicsOf(['mentioned', 'assigned', 'overdue'])).toBe('mentions, assignments and overdue tasks');
  });
});

import { describe, expect, it } from 'vitest';
import {
  apiTokenSecretFrom,
  displayPrefixOf,
  generateApiTokenSecret,
  hashApiToken,
  isWellFormedApiToken,
} from './api-token-secret.ts';

describe('API token secrets', () => {
  it('are tl_pat_ and 43 base62 characters, different every time', () => {
    const secrets = Array.from({ length: 50 }, generateApiTokenSecret);
    for (const secret of secrets) expect(secret).toMatch(/^tl_pat_[0-9A-Za-z]{43}$/);
    expect(new Set(secrets).size).toBe(50);
  });

  it('spell the smallest and the largest 32-byte values in exactly 43 characters', () => {
    expect(apiTokenSecretFrom(new Uint8Array(32))).toBe(`tl_pat_${'0'.repeat(43)}`);
    expect(apiTokenSecretFrom(new Uint8Array(32).fill(0xff))).toBe(
      'tl_pat_yhjskwdA6OZ1AL1YmHWZWm8LLG7HjnuCA2j5rOw8Xp1',
    );
    expect(apiTokenSecretFrom(new Uint8Array(32).with(31, 62))).toBe(`tl_pat_${'0'.repeat(41)}10`);
    expect(() => apiTokenSecretFrom(new Uint8Array(31))).toThrow('an API token secret takes 32 bytes');
  });

  it.each([
    ['a secret it made', `tl_pat_${'a'.repeat(43)}`, true],
    ['one character short', `tl_pat_${'a'.repeat(42)}`, false],
    ['one character long', `tl_pat_${'a'.repeat(44)}`, false],
    ['base64url characters', `tl_pat_${'a'.repeat(42)}-`, false],
    ['another prefix', `tl_pak_${'a'.repeat(43)}`, false],
  ])('tell %s apart', (_name, token, wellFormed) => {
    expect(isWellFormedApiToken(token)).toBe(wellFormed);
  });

  it('are displayed by their first four random characters', () => {
    expect(displayPrefixOf('tl_pat_4fQx8uVb1nR0kYp3ZsT6wLc2HdJ9aGm5eXq7iUo4yBt')).toBe('tl_pat_4fQx');
  });

  it('are stored as the hex SHA-256 of the whole secret', async () => {
    expect(await hashApiToken('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });
});

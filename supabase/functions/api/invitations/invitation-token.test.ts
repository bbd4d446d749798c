import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  acceptUrlOf,
  generateInvitationToken,
  hashInvitationToken,
  isWellFormedInvitationToken,
} from './invitation-token.ts';

describe('invitation tokens', () => {
  it('are 43 base64url characters of 32 random bytes, different every time', () => {
    const tokens = Array.from({ length: 200 }, generateInvitationToken);
    for (const token of tokens) {
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(token, 'base64url')).toHaveLength(32);
      expect(isWellFormedInvitationToken(token)).toBe(true);
    }
    expect(new Set(tokens).size).toBe(tokens.length);
  });

  it.each(['', 'short', `${'a'.repeat(43)}=`, 'a'.repeat(44), `${'a'.repeat(42)}+`, `${'a'.repeat(42)}/`])(
    'tells %j is not one',
    (token) => {
      expect(isWellFormedInvitationToken(token)).toBe(false);
    },
  );

  it('hashes the token as written with SHA-256, in hex', async () => {
    const token = generateInvitationToken();
    expect(await hashInvitationToken(token)).toBe(createHash('sha256').update(token).digest('hex'));
  });

  it("points into the web app's /invite page", () => {
    expect(acceptUrlOf('https://app.example.com', 'abc')).toBe('https://app.example.com/invite/abc');
  });
});

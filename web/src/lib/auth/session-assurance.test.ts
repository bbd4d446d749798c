import { describe, expect, it } from 'vitest';
import { sessionAssurance } from './session-assurance.ts';

function token(claims: Record<string, unknown>): string {
  const encode = (value: unknown) =>
    btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  return `${encode({ alg: 'ES256', typ: 'JWT' })}.${encode(claims)}.signature`;
}

const verified = { status: 'verified' };
const unverified = { status: 'unverified' };

describe('sessionAssurance', () => {
  it('owes no second factor when the user has none verified', () => {
    const session = { access_token: token({ aal: 'aal1' }), user: { factors: [unverified] } };

    expect(sessionAssurance(session)).toEqual({
      level: 'aal1',
      needsSecondFactor: false,
      fromRecovery: false,
    });
    expect(sessionAssurance({ ...session, user: {} }).needsSecondFactor).toBe(false);
  });

  it('owes a code while a user with a verified factor is at aal1, and not at aal2', () => {
    const factors = [verified];

    expect(sessionAssurance({ access_token: token({ aal: 'aal1' }), user: { factors } })).toMatchObject({
      level: 'aal1',
      needsSecondFactor: true,
    });
    expect(sessionAssurance({ access_token: token({ aal: 'aal2' }), user: { factors } })).toMatchObject({
      level: 'aal2',
      needsSecondFactor: false,
    });
  });

  it('recognises a session that a recovery link started', () => {
    const amr = [
      { method: 'totp', timestamp: 2 },
      { method: 'recovery', timestamp: 1 },
    ];

    expect(sessionAssurance({ access_token: token({ aal: 'aal2', amr }), user: {} }).fromRecovery).toBe(true);
    for (const method of ['password', 'otp']) {
      const amrOf = [{ method, timestamp: 1 }];
      expect(sessionAssurance({ access_token: token({ amr: amrOf }), user: {} }).fromRecovery, method).toBe(
        false,
      );
    }
  });

  it('treats an unreadable token as the weakest session', () => {
    expect(sessionAssurance({ access_token: 'not-a-jwt', user: { factors: [verified] } })).toEqual({
      level: 'aal1',
      needsSecondFactor: true,
      fromRecovery: false,
    });
  });
});

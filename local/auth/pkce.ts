import { createHash, timingSafeEqual } from 'node:crypto';
import { validationFailed } from './errors.ts';

export type CodeChallengeMethod = 's256' | 'plain';

export interface PkceChallenge {
  challenge: string;
  method: CodeChallengeMethod;
}

const MIN_CHALLENGE_LENGTH = 43;
const MAX_CHALLENGE_LENGTH = 128;
const CHALLENGE_CHARACTERS = /^[a-zA-Z._~0-9-]+$/;

/**
 * The PKCE challenge a request carries, checked as GoTrue checks it (RFC 7636 §4.2), or null for the
 * implicit flow. auth-js sends `code_challenge_method` in lower case (`s256`).
 */
export function pkceChallenge(
  challenge: string | null | undefined,
  method: string | null | undefined,
): PkceChallenge | null {
  if (!challenge && !method) return null;
  if (!challenge || !method) {
    throw validationFailed('PKCE flow requires code_challenge_method and code_challenge');
  }
  if (challenge.length < MIN_CHALLENGE_LENGTH || challenge.length > MAX_CHALLENGE_LENGTH) {
    throw validationFailed(
      `code challenge has to be between ${MIN_CHALLENGE_LENGTH} and ${MAX_CHALLENGE_LENGTH} characters`,
    );
  }
  if (!CHALLENGE_CHARACTERS.test(challenge)) {
    throw validationFailed(
      'code challenge can only contain alphanumeric characters, hyphens, periods, underscores and tildes',
    );
  }
  const normalized = method.toLowerCase();
  if (normalized !== 's256' && normalized !== 'plain') {
    throw validationFailed(`unsupported code_challenge method "${method}"`);
  }
  return { challenge, method: normalized };
}

/** Whether the verifier answers the challenge: base64url(SHA-256(verifier)) for s256, itself for plain. */
export function verifierMatches({ challenge, method }: PkceChallenge, verifier: string): boolean {
  const expected = method === 's256' ? createHash('sha256').update(verifier).digest('base64url') : verifier;
  const [a, b] = [Buffer.from(challenge), Buffer.from(expected)];
  return a.length === b.length && timingSafeEqual(a, b);
}

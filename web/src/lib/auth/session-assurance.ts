/**
 * What a session proves, read from its access token's `aal` and `amr` claims and the user's factors, the
 * way auth-js's getAuthenticatorAssuranceLevel() reads them, but synchronously, so guards and screens
 * can decide without waiting. The token is not verified here: the API and Auth verify it on every call.
 */

interface SessionLike {
  access_token: string;
  user: { factors?: readonly { status: string }[] | undefined };
}

export interface SessionAssurance {
  level: 'aal1' | 'aal2';
  /** The user has a verified factor but this session has not used it yet: ask for a code first. */
  needsSecondFactor: boolean;
  /** The session came from a recovery link, so it may set a new password without the old one. */
  fromRecovery: boolean;
}

// A recovery-link sign-in's `amr` method. (`otp` also marks e-mail confirmations, so it proves nothing;
// the PASSWORD_RECOVERY event covers a server that records recovery that way.)
const RECOVERY_METHOD = 'recovery';

export function sessionAssurance(session: SessionLike): SessionAssurance {
  const claims = readClaims(session.access_token);
  const level = claims.aal === 'aal2' ? 'aal2' : 'aal1';
  const hasVerifiedFactor = (session.user.factors ?? []).some((factor) => factor.status === 'verified');
  return {
    level,
    needsSecondFactor: hasVerifiedFactor && level === 'aal1',
    fromRecovery: claims.methods.includes(RECOVERY_METHOD),
  };
}

interface Claims {
  aal: unknown;
  methods: string[];
}

function readClaims(accessToken: string): Claims {
  try {
    const payload: unknown = JSON.parse(decodeBase64Url(accessToken.split('.')[1] ?? ''));
    if (typeof payload !== 'object' || payload === null) return { aal: null, methods: [] };
    const { aal, amr } = payload as { aal?: unknown; amr?: unknown };
    return { aal, methods: Array.isArray(amr) ? amr.map(methodOf) : [] };
  } catch {
    return { aal: null, methods: [] };
  }
}

function methodOf(entry: unknown): string {
  if (typeof entry === 'object' && entry !== null && 'method' in entry && typeof entry.method === 'string')
    return entry.method;
  return '';
}

function decodeBase64Url(text: string): string {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

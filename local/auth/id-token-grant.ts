import type { IncomingMessage } from 'node:http';
import { z } from 'zod';
import type { AuthContext } from './context.ts';
import { requireSession } from './current-session.ts';
import { AuthError, validationFailed } from './errors.ts';
import type { Reply } from './reply.ts';
import { readJsonBody } from './request-body.ts';

const IdTokenBody = z.object({
  id_token: z.string().optional(),
  provider: z.string().optional(),
  client_id: z.string().optional(),
  issuer: z.string().optional(),
  link_identity: z.boolean().optional(),
});

type IdTokenRequest = z.infer<typeof IdTokenBody>;

/** The issuers GoTrue knows its ID-token providers by; Keycloak's is its configured URL, here none. */
const FIXED_ISSUERS: Record<string, string> = {
  google: 'https://accounts.google.com',
  facebook: 'https://www.facebook.com',
  keycloak: '',
  kakao: 'https://kauth.kakao.com',
  vercel_marketplace: 'https://marketplace.vercel.com',
  snapchat: 'https://accounts.snapchat.com/accounts/oauth2/token',
};
const APPLE_ISSUERS = ['https://appleid.apple.com', 'https://account.apple.com'];
const AZURE_ISSUER_PREFIXES = ['https://login.microsoftonline.com/', 'https://sts.windows.net/'];

/**
 * POST /token?grant_type=id_token (`signInWithIdToken`). No external provider is enabled on the stand-in, so
 * past GoTrue's request checks every provider it recognises is 400 `provider_disabled`, naming its issuer.
 */
export async function idTokenGrant(context: AuthContext, req: IncomingMessage): Promise<Reply> {
  const body = await readJsonBody(req, IdTokenBody);
  if (!body.id_token) return oauthError('id_token required');
  if (!body.provider && (!body.client_id || !body.issuer)) {
    return oauthError('provider or client_id and issuer required');
  }
  if (body.link_identity) {
    if (!req.headers.authorization) {
      return oauthError('Linking requires a valid user access token in Authorization');
    }
    await requireSession(context, req);
  }
  throw providerDisabled(issuerOf(body, body.id_token));
}

function issuerOf(body: IdTokenRequest, idToken: string): string {
  const { provider = '', issuer = '' } = body;
  if (provider === 'apple' || APPLE_ISSUERS.includes(issuer)) {
    const detected = unverifiedIssuer(idToken, 'Apple');
    if (!APPLE_ISSUERS.includes(detected)) {
      throw validationFailed('Detected ID token issuer is not an Apple ID token issuer');
    }
    return matchingIssuer(issuer, detected);
  }
  const fixed = Object.entries(FIXED_ISSUERS).find(
    ([name, known]) => provider === name || (known !== '' && issuer === known),
  );
  if (provider === 'azure' || (!fixed && AZURE_ISSUER_PREFIXES.some((prefix) => issuer.startsWith(prefix)))) {
    const detected = unverifiedIssuer(idToken, 'Azure');
    if (!AZURE_ISSUER_PREFIXES.some((prefix) => detected.startsWith(prefix))) {
      throw validationFailed('Detected ID token issuer is not an Azure ID token issuer');
    }
    return matchingIssuer(issuer, detected);
  }
  if (fixed) return fixed[1];
  if (provider.startsWith('custom:')) throw validationFailed('Custom OAuth providers are disabled');
  throw validationFailed(`Custom OIDC provider "${provider}" not allowed`);
}

function matchingIssuer(given: string, detected: string): string {
  if (given !== '' && given !== detected)
    throw validationFailed('Provided issuer does not match ID token issuer');
  return detected;
}

/** The `iss` of an ID token, read without checking its signature, as GoTrue detects Apple's and Azure's. */
function unverifiedIssuer(idToken: string, provider: string): string {
  try {
    const claims = JSON.parse(Buffer.from(idToken.split('.')[1] ?? '', 'base64url').toString()) as unknown;
    const issuer = (claims as { iss?: unknown } | null)?.iss;
    if (typeof issuer === 'string') return issuer;
  } catch {
    // answered below
  }
  throw validationFailed(`Unable to detect issuer in ID token for ${provider} provider`);
}

const providerDisabled = (issuer: string) =>
  new AuthError(400, 'provider_disabled', `Provider (issuer "${issuer}") is not enabled`);

/** GoTrue's OAuth-style refusal of a malformed token request. */
function oauthError(description: string): Reply {
  return { status: 400, body: { error: 'invalid request', error_description: description } };
}

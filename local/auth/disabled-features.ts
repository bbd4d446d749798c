import type { AuthContext } from './context.ts';
import { requireSession } from './current-session.ts';
import type { Endpoint } from './endpoint.ts';
import { AuthError } from './errors.ts';

/**
 * GoTrue features the stand-in keeps switched off, as the CLI's config.toml has them, answered with the
 * codes GoTrue gives when they are off.
 */
export const anonymousSignInsDisabled = () =>
  new AuthError(422, 'anonymous_provider_disabled', 'Anonymous sign-ins are disabled');

/** `/sso` and `/sso/saml/*` (`signInWithSSO`): refused before anything else is looked at. */
export const samlDisabled: Endpoint = () => {
  throw new AuthError(404, 'saml_provider_disabled', 'SAML 2.0 is disabled');
};

/** POST /token?grant_type=web3 (`signInWithWeb3`): refused before the body is read. */
export const web3Disabled = () => new AuthError(422, 'web3_provider_disabled', 'Web3 provider is disabled');

/** `/user/identities/*` (`linkIdentity`, `unlinkIdentity`): the bearer is checked first, as on GoTrue. */
export const manualLinkingDisabled: Endpoint = async (context: AuthContext, req) => {
  await requireSession(context, req);
  throw new AuthError(404, 'manual_linking_disabled', 'Manual linking is disabled');
};

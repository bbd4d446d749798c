import { publicJwks } from '../keys.ts';
import type { AuthContext } from './context.ts';
import { ok, type Reply } from './reply.ts';

export function health(): Reply {
  return ok({
    version: 'stand-in',
    name: 'GoTrue',
    description: 'GoTrue is a user registration and authentication API',
  });
}

/** GET /settings, as GoTrue answers with the CLI's defaults (e-mail sign-up; autoconfirm unless confirmations are on). */
export function settings(context: AuthContext): Reply {
  return ok({
    external: { anonymous_users: false, email: true, phone: false },
    disable_signup: false,
    mailer_autoconfirm: !context.emailConfirmations,
    phone_autoconfirm: false,
    sms_provider: '',
    saml_enabled: false,
  });
}

export function jwks(context: AuthContext): Reply {
  return ok(publicJwks(context.keys), { 'cache-control': 'public, max-age=600' });
}

import type { Database } from '../db.ts';
import type { StandInKeys } from '../keys.ts';
import type { EmailTemplates } from './email-templates.ts';
import type { Mailer } from './mailer.ts';
import type { RateLimiter } from './rate-limits.ts';
import type { RedirectSettings } from './redirects.ts';
import type { TokenIssuer } from './tokens.ts';

/** What every auth endpoint may use. */
export interface AuthContext {
  database: Database;
  keys: StandInKeys;
  tokens: TokenIssuer;
  refreshTokenReuseIntervalSeconds: number;
  /** `${API_EXTERNAL_URL}`, i.e. `${apiUrl}/auth/v1`: e-mail links point at its `/verify`. */
  externalUrl: string;
  mailer: Mailer;
  /** Off (the CLI default) means GoTrue's `MAILER_AUTOCONFIRM`: sign-ups are confirmed at once. */
  emailConfirmations: boolean;
  /** GoTrue's `SECURITY_UPDATE_PASSWORD_REQUIRE_REAUTHENTICATION`. */
  securePasswordChange: boolean;
  /** GoTrue's `MAILER_SECURE_EMAIL_CHANGE_ENABLED`. */
  secureEmailChange: boolean;
  /** Tasklane's confirmation and recovery mails (supabase/templates). */
  emailTemplates: EmailTemplates;
  redirects: RedirectSettings;
  rateLimiter: RateLimiter;
}

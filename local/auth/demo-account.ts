import type { Database } from '../db.ts';
import { lockUserByEmail } from './email-tokens.queries.ts';
import { registerEmailUser } from './user-registration.ts';

/** The account every fresh stand-in has, so that there is something to sign in with. Local use only. */
export const DEMO_ACCOUNT = {
  email: 'demo@tasklane.local',
  password: 'tasklane-demo',
  displayName: 'Demo User',
} as const;

/** Creates the demo account, confirmed, unless a user with its e-mail exists; true when it did. */
export function ensureDemoAccount(database: Database): Promise<boolean> {
  return database.transaction(async (db) => {
    if (await lockUserByEmail(db, DEMO_ACCOUNT.email)) return false;
    await registerEmailUser(db, {
      email: DEMO_ACCOUNT.email,
      password: DEMO_ACCOUNT.password,
      userMetadata: { display_name: DEMO_ACCOUNT.displayName },
      emailConfirmed: true,
    });
    return true;
  });
}

import type { IncomingMessage } from 'node:http';
import { z } from 'zod';
import type { AuthContext } from './context.ts';
import { AuthError, validationFailed } from './errors.ts';
import {
  deleteFlowState,
  lockFlowStateByAuthCode,
  type FlowMethod,
  type FlowStateRow,
} from './flow-state.queries.ts';
import { verifierMatches } from './pkce.ts';
import { readJsonBody } from './request-body.ts';
import type { AuthenticationMethod } from './sessions.queries.ts';
import { startSession, type SessionBody } from './sessions.ts';
import { findUserById, recordSignIn } from './users.queries.ts';

const PkceGrantBody = z.object({ auth_code: z.string().optional(), code_verifier: z.string().optional() });

/** GoTrue's `FlowStateExpiryDuration`: an auth code is good for 5 minutes after its flow began. */
const FLOW_STATE_EXPIRY_SECONDS = 300;

const SESSION_METHOD: Record<FlowMethod, AuthenticationMethod> = {
  recovery: 'recovery',
  magiclink: 'magiclink',
  'email/signup': 'email/signup',
  invite: 'invite',
  email_change: 'email_change',
};

/** POST /token?grant_type=pkce `{auth_code, code_verifier}`: the session a PKCE e-mail link paid for. */
export async function pkceGrant(context: AuthContext, req: IncomingMessage): Promise<SessionBody> {
  const body = await readJsonBody(req, PkceGrantBody);
  if (!body.auth_code || !body.code_verifier) {
    throw validationFailed('invalid request: both auth code and code verifier should be non-empty');
  }
  const { auth_code: authCode, code_verifier: verifier } = body;
  return context.database.transaction(async (db) => {
    const flow = await lockFlowStateByAuthCode(db, authCode);
    const user = flow?.user_id ? await findUserById(db, flow.user_id) : null;
    if (!flow || !user) {
      throw new AuthError(404, 'flow_state_not_found', 'invalid flow state, no valid flow state found');
    }
    if (hasExpired(flow)) {
      throw new AuthError(422, 'flow_state_expired', 'invalid flow state, flow state has expired');
    }
    if (!verifierMatches({ challenge: flow.code_challenge, method: flow.code_challenge_method }, verifier)) {
      throw new AuthError(
        400,
        'bad_code_verifier',
        'code challenge does not match previously saved code verifier',
      );
    }
    await deleteFlowState(db, flow.id);
    await recordSignIn(db, user.id);
    return startSession(context, db, user, SESSION_METHOD[flow.authentication_method]);
  });
}

/** GoTrue times magic-link flows from when their code was handed out, the others from when they began. */
function hasExpired(flow: FlowStateRow): boolean {
  const start =
    flow.authentication_method === 'magiclink'
      ? (flow.auth_code_issued_at ?? flow.created_at)
      : flow.created_at;
  return Date.now() > start.getTime() + FLOW_STATE_EXPIRY_SECONDS * 1000;
}

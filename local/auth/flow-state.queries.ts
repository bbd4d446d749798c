import type { Db } from '../db.ts';
import type { CodeChallengeMethod } from './pkce.ts';

/** What a PKCE flow was started for, as GoTrue names it in `flow_state.authentication_method`. */
export type FlowMethod = 'recovery' | 'magiclink' | 'email/signup' | 'invite' | 'email_change';

export interface FlowStateRow {
  id: string;
  user_id: string | null;
  auth_code: string;
  code_challenge: string;
  code_challenge_method: CodeChallengeMethod;
  authentication_method: FlowMethod;
  created_at: Date;
  auth_code_issued_at: Date | null;
}

const COLUMNS = `id, user_id, auth_code, code_challenge, code_challenge_method, authentication_method,
  created_at, auth_code_issued_at`;

export async function insertFlowState(
  db: Db,
  flow: {
    userId: string;
    challenge: string;
    method: CodeChallengeMethod;
    providerType: string;
    authenticationMethod: FlowMethod;
  },
): Promise<void> {
  await db.query(
    `insert into auth.flow_state (id, user_id, auth_code, code_challenge_method, code_challenge, provider_type,
       authentication_method, created_at, updated_at)
     values (gen_random_uuid(), $1, gen_random_uuid()::text, $2, $3, $4, $5, now(), now())`,
    [flow.userId, flow.method, flow.challenge, flow.providerType, flow.authenticationMethod],
  );
}

/** The user's latest flow of this kind, stamped as having handed out its auth code (GoTrue's issueAuthCode). */
export async function issueAuthCode(db: Db, userId: string, method: FlowMethod): Promise<string | null> {
  const result = await db.query<{ auth_code: string }>(
    `update auth.flow_state set auth_code_issued_at = now(), updated_at = now()
     where id = (select id from auth.flow_state where user_id = $1 and authentication_method = $2
                 order by created_at desc limit 1)
     returning auth_code`,
    [userId, method],
  );
  return result.rows[0]?.auth_code ?? null;
}

/** Locks the flow so that one auth code is exchanged once, however many requests race for it. */
export async function lockFlowStateByAuthCode(db: Db, authCode: string): Promise<FlowStateRow | null> {
  const result = await db.query<FlowStateRow>(
    `select ${COLUMNS} from auth.flow_state where auth_code = $1 for update`,
    [authCode],
  );
  return result.rows[0] ?? null;
}

export async function deleteFlowState(db: Db, id: string): Promise<void> {
  await db.query('delete from auth.flow_state where id = $1', [id]);
}

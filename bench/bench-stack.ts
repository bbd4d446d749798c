/**
 * What the bench runs against: a fresh stand-in with the API's and Realtime's rate limits raised out of the
 * way (every request is still counted, as in production; none is refused), the seeded workspace, a member
 * signed in through the gateway with supabase-js, and the bare handler on the same database twice: as the
 * function `bare` beside `api`, behind the same gateway, and on a port of its own, called directly.
 */
import { createClient, type RealtimeClientOptions } from '@supabase/supabase-js';
import { decodeJwt } from 'jose';
import ws from 'ws';
import { openDatabase, type Database } from '../local/db.ts';
import { readKeys } from '../local/keys.ts';
import type { Principal } from '../supabase/functions/_shared/principal.ts';
import { startStandIn, type StandInProcess } from '../tests/support/stand-in-process.ts';
import { startBareHandler, type BareHandler } from './bare-handler-process.ts';
import { BARE_FUNCTION, createBenchProject } from './bench-project.ts';
import { seedWorkspace, type SeededWorkspace, type SeedSizes } from './seed.ts';

const UNLIMITED = String(1_000_000_000);

export interface BenchStack {
  standIn: StandInProcess;
  /** The database as its owner, `postgres`: what the API function and the stand-in connect with. */
  databaseUrl: string;
  owner: Database;
  /** The bare handler on a port of its own, called directly: the old baseline, kept for reference. */
  bare: BareHandler;
  /** The bare handler as a function behind the stand-in's gateway, as `/functions/v1/api` is. */
  bareViaGatewayPath: string;
  seeded: SeededWorkspace;
  /** The signed-in member's access token (ES256, from the stand-in's Auth) and who it says they are. */
  accessToken: string;
  principal: Principal;
  stop(): Promise<void>;
}

export async function startBenchStack(
  sizes: SeedSizes,
  webhookScheduleMs: number,
  progress: (line: string) => void,
): Promise<BenchStack> {
  const stoppers: (() => Promise<unknown>)[] = [];
  const stop = async () => {
    for (const stopOne of stoppers.reverse()) await stopOne().catch(() => undefined);
  };
  try {
    const project = await createBenchProject();
    stoppers.push(() => project.remove());
    progress('starting a fresh stand-in (PostgreSQL, Auth, the API and the bare handler under Deno)…');
    const standIn = await startStandIn({
      projectDir: project.dir,
      env: {
        RATE_LIMIT_USER_PER_MINUTE: UNLIMITED,
        RATE_LIMIT_IP_PER_MINUTE: UNLIMITED,
        // Row k's moves reach 50 clients each, far over hosted Realtime's 100 messages a second.
        TASKLANE_REALTIME_MAX_EVENTS_PER_SECOND: UNLIMITED,
        TASKLANE_WEBHOOK_DISPATCH_INTERVAL_MS: String(webhookScheduleMs),
      },
    });
    stoppers.push(() => standIn.dispose());
    const databaseUrl = `postgresql://postgres:postgres@127.0.0.1:${standIn.ports.db}/postgres`;
    const owner = openDatabase({
      url: databaseUrl,
      maxConnections: 2,
      log: progress,
      // Bulk seeding and VACUUM: bounded, but generously.
      bounds: { statementTimeoutMs: 120_000, idleInTransactionTimeoutMs: 60_000 },
    });
    stoppers.push(() => owner.close());

    const count = (n: number) => n.toLocaleString('en');
    progress(
      `seeding ${sizes.members} members and projects of ${count(sizes.bigProjectTasks)} and ${count(sizes.smallProjectTasks)} tasks…`,
    );
    const seeded = await seedWorkspace(owner, sizes);
    progress(`signing in ${seeded.member.email} with supabase-js through the gateway…`);
    const accessToken = await signIn(standIn, seeded.member);
    await assertNotRateLimited(standIn, accessToken);

    progress('starting the bare Deno.serve handler on a port of its own…');
    const bare = await startBareHandler(databaseUrl);
    stoppers.push(() => bare.stop());
    return {
      standIn,
      databaseUrl,
      owner,
      bare,
      bareViaGatewayPath: `/functions/v1/${BARE_FUNCTION}`,
      seeded,
      accessToken,
      principal: principalOf(accessToken),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function signIn(standIn: StandInProcess, member: SeededWorkspace['member']): Promise<string> {
  const keys = await readKeys(standIn.dataDir);
  if (!keys) throw new Error('the stand-in has no keys in its data directory');
  const supabase = createClient(standIn.apiUrl, keys.anonKey, {
    // Node 20 has no WebSocket of its own; the realtime client is never used here, but is always made.
    realtime: { transport: ws as unknown as RealtimeClientOptions['transport'] },
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  });
  const { data, error } = await supabase.auth.signInWithPassword(member);
  if (error || !data.session) throw new Error(`signing in failed: ${error?.message ?? 'no session'}`);
  return data.session.access_token;
}

/** The raised limits must have reached the function, or the bench would measure 429s. */
async function assertNotRateLimited(standIn: StandInProcess, accessToken: string): Promise<void> {
  const response = await fetch(`${standIn.apiUrl}/functions/v1/api/v1/me`, {
    headers: { authorization: `Bearer ${accessToken}` },
  });
  await response.arrayBuffer();
  const policy = response.headers.get('ratelimit-policy') ?? '';
  if (response.status !== 200 || !policy.includes(`q=${UNLIMITED};`)) {
    // What the stand-in logged says why (an unexpected error is logged with its cause, never a secret).
    const logged = standIn.output().trim().split('\n').slice(-40).join('\n');
    throw new Error(
      `the API is rate limited as "${policy}" (${response.status}): the raised limits did not reach it.\nThe stand-in's last lines:\n${logged}`,
    );
  }
}

/** Who the API will see behind the token: the same principal the floor queries as. */
function principalOf(accessToken: string): Principal {
  const claims = decodeJwt(accessToken);
  const text = (name: string) => (typeof claims[name] === 'string' ? (claims[name] as string) : null);
  const [userId, sessionId] = [text('sub'), text('session_id')];
  if (!userId || !sessionId) throw new Error('the access token lacks sub or session_id');
  return {
    user_id: userId,
    email: text('email'),
    aal: text('aal') === 'aal2' ? 'aal2' : 'aal1',
    session_id: sessionId,
  };
}

/**
 * The second security review, item 2 (docs/decisions/0032): RLS admits a caller only while their credential
 * stands, the rule the API's own check holds (supabase/functions/_shared/auth/sessions.queries.ts for
 * sessions, private.authenticate_api_token for API tokens). Proven here rule by rule, on the tables beyond
 * `public` that Storage and Realtime read as the caller, once per statement, and against claims of every
 * shape a fuzzer makes. tests/db/rls-matrix.test.ts proves it table by table in `public`.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type pg from 'pg';
import { beforeAll, describe, expect, test } from 'vitest';
import { ensureLiveSession } from '../support/live-session.ts';
import { useTestDatabaseClient } from '../support/test-database.ts';
import { createRlsFixture, type RlsFixture } from './rls-fixture.ts';

const owner = useTestDatabaseClient();
let db: pg.Client;

beforeAll(() => {
  db = owner.db;
});

type Claims = Record<string, unknown>;

/** Runs `sql` as `authenticated` with `claims` (and `settings`), as PostgREST, Storage and Realtime do; rolled back. */
async function asCaller<Row extends pg.QueryResultRow>(
  claims: Claims,
  sql: string,
  values: unknown[] = [],
  settings: Record<string, string> = {},
): Promise<Row[]> {
  await db.query('begin');
  try {
    for (const [name, value] of Object.entries(settings)) {
      await db.query('select set_config($1, $2, true)', [name, value]);
    }
    await db.query(
      `select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)`,
      [JSON.stringify(claims)],
    );
    return (await db.query<Row>(sql, values)).rows;
  } finally {
    await db.query('rollback');
  }
}

interface Person {
  id: string;
  /** Their own workspace, of which they are the owner. */
  workspaceId: string;
  /** A live session of theirs. */
  sessionId: string;
  /** A live API token of theirs. */
  apiTokenId: string;
}

/** A user with a workspace of their own, a live session and a live API token, as Auth and the API leave them. */
async function newPerson(): Promise<Person> {
  const id = randomUUID();
  await db.query(
    `insert into auth.users (id, email, aud, role, created_at, updated_at)
     values ($1, $2, 'authenticated', 'authenticated', now(), now())`,
    [id, `${id}@live-credentials.test`],
  );
  const workspace = await db.query<{ id: string }>(
    `insert into public.workspaces (name, slug, created_by) values ('Live', $1, $2) returning id`,
    [`live-${id.slice(0, 8)}`, id],
  );
  const workspaceId = workspace.rows[0]?.id ?? '';
  await db.query(`insert into public.memberships (workspace_id, user_id, role) values ($1, $2, 'owner')`, [
    workspaceId,
    id,
  ]);
  const sessionId = randomUUID();
  await db.query(
    `insert into auth.sessions (id, user_id, created_at, updated_at, aal) values ($1, $2, now(), now(), 'aal1')`,
    [sessionId, id],
  );
  return { id, workspaceId, sessionId, apiTokenId: await insertApiToken(id) };
}

async function insertApiToken(userId: string, lifetime = '1 day'): Promise<string> {
  const token = await db.query<{ id: string }>(
    `insert into public.api_tokens (user_id, name, prefix, token_hash, scope, expires_at, created_at)
     values ($1, 'CI', 'tl_pat_LIVE', sha256(convert_to(gen_random_uuid()::text, 'UTF8')), 'write',
       now() + $2::interval, now() - interval '2 days')
     returning id`,
    [userId, lifetime],
  );
  return token.rows[0]?.id ?? '';
}

/** A session's claims as GoTrue writes them; an API token's as the API writes them (principal.ts). */
const sessionClaims = (person: Person, sessionId = person.sessionId): Claims => ({
  sub: person.id,
  role: 'authenticated',
  aal: 'aal1',
  session_id: sessionId,
});
const apiTokenClaims = (person: Person, apiTokenId = person.apiTokenId): Claims => ({
  sub: person.id,
  role: 'authenticated',
  aal: 'aal1',
  session_id: null,
  api_token_id: apiTokenId,
});

/** Whether the caller sees their own workspace: what every policy in public asks first. */
async function seesOwnWorkspace(person: Person, claims: Claims): Promise<boolean> {
  const rows = await asCaller(claims, 'select 1 from public.workspaces where id = $1', [person.workspaceId]);
  return rows.length === 1;
}

interface CredentialCase {
  name: string;
  /** Changes the state of things (as Auth, the API or time would), then answers the caller's claims. */
  arrange: (person: Person, other: Person) => Promise<Claims>;
  stands: boolean;
}

const run = (sql: string, values: unknown[]) => db.query(sql, values);

const CREDENTIAL_CASES: CredentialCase[] = [
  { name: 'a live session', arrange: async (me) => sessionClaims(me), stands: true },
  {
    name: 'a signed-out session (its row deleted)',
    arrange: async (me) => {
      await run('delete from auth.sessions where id = $1', [me.sessionId]);
      return sessionClaims(me);
    },
    stands: false,
  },
  {
    name: 'a session past its not_after (timed out)',
    arrange: async (me) => {
      await run(`update auth.sessions set not_after = now() - interval '1 second' where id = $1`, [
        me.sessionId,
      ]);
      return sessionClaims(me);
    },
    stands: false,
  },
  {
    name: 'a session whose not_after is still ahead',
    arrange: async (me) => {
      await run(`update auth.sessions set not_after = now() + interval '1 hour' where id = $1`, [
        me.sessionId,
      ]);
      return sessionClaims(me);
    },
    stands: true,
  },
  {
    name: "another user's live session under my sub",
    arrange: async (me, other) => sessionClaims(me, other.sessionId),
    stands: false,
  },
  {
    name: 'a session of a user banned until tomorrow',
    arrange: async (me) => {
      await run(`update auth.users set banned_until = now() + interval '1 day' where id = $1`, [me.id]);
      return sessionClaims(me);
    },
    stands: false,
  },
  {
    name: 'a session of a user whose ban has run out',
    arrange: async (me) => {
      await run(`update auth.users set banned_until = now() - interval '1 second' where id = $1`, [me.id]);
      return sessionClaims(me);
    },
    stands: true,
  },
  {
    name: 'a session of a soft-deleted user',
    arrange: async (me) => {
      await run('update auth.users set deleted_at = now() where id = $1', [me.id]);
      return sessionClaims(me);
    },
    stands: false,
  },
  { name: 'a live API token', arrange: async (me) => apiTokenClaims(me), stands: true },
  {
    name: 'a revoked API token',
    arrange: async (me) => {
      await run('update public.api_tokens set revoked_at = now() where id = $1', [me.apiTokenId]);
      return apiTokenClaims(me);
    },
    stands: false,
  },
  {
    name: 'an expired API token',
    arrange: async (me) => apiTokenClaims(me, await insertApiToken(me.id, '-1 second')),
    stands: false,
  },
  {
    name: "another user's live API token under my sub",
    arrange: async (me, other) => apiTokenClaims(me, other.apiTokenId),
    stands: false,
  },
  {
    name: 'an API token of a user banned until tomorrow',
    arrange: async (me) => {
      await run(`update auth.users set banned_until = now() + interval '1 day' where id = $1`, [me.id]);
      return apiTokenClaims(me);
    },
    stands: false,
  },
  {
    name: 'an API token of a soft-deleted user',
    arrange: async (me) => {
      await run('update auth.users set deleted_at = now() where id = $1', [me.id]);
      return apiTokenClaims(me);
    },
    stands: false,
  },
  {
    name: 'neither a session nor an API token',
    arrange: async (me) => ({ sub: me.id, role: 'authenticated', aal: 'aal1' }),
    stands: false,
  },
  {
    name: 'a session_id that is no uuid',
    arrange: async (me) => sessionClaims(me, `${me.sessionId}x`),
    stands: false,
  },
];

describe('what makes a credential stand, as the API judges it', () => {
  test.each(CREDENTIAL_CASES)('$name: admitted $stands', async ({ arrange, stands }) => {
    const [me, other] = [await newPerson(), await newPerson()];
    const claims = await arrange(me, other);
    expect(await seesOwnWorkspace(me, claims)).toBe(stands);
  });
});

/**
 * The tables a session reaches outside `public`: Storage's objects and Realtime's messages (which those
 * services read as the caller) and the former project keys (which the API reads as the caller).
 */
describe('beyond public: Storage, Realtime and the former project keys', () => {
  let fixture: RlsFixture;
  let attachmentObject: string;
  let avatarObject: string;

  beforeAll(async () => {
    fixture = await createRlsFixture(db);
    attachmentObject = `${fixture.workspaceId}/${fixture.taskId}/${fixture.attachmentIds.member}`;
    avatarObject = `${fixture.users.member}/${randomUUID()}`;
    await db.query(
      `insert into storage.objects (bucket_id, name, metadata)
       values ('attachments', $1, '{"size": 1234, "mimetype": "image/png"}'),
              ('avatars', $2, '{"size": 10, "mimetype": "image/png"}')`,
      [attachmentObject, avatarObject],
    );
    await db.query('update public.profiles set avatar_path = $1 where user_id = $2', [
      avatarObject,
      fixture.users.member,
    ]);
    await db.query(
      `insert into private.project_former_keys (workspace_id, key, project_id) values ($1, 'OLD', $2)`,
      [fixture.workspaceId, fixture.projectId],
    );
  });

  const topic = () => `workspace:${fixture.workspaceId}`;
  /** As Realtime checks a join: a probe row inserted by the owner, read as the caller on the topic. */
  const readsTopic = async (claims: Claims) => {
    await db.query('begin');
    try {
      const probe = await db.query<{ id: string }>(
        `insert into realtime.messages (topic, extension, event, private) values ($1, 'broadcast', 'probe', true)
         returning id`,
        [topic()],
      );
      await db.query(
        `select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true),
           set_config('realtime.topic', $2, true)`,
        [JSON.stringify(claims), topic()],
      );
      const seen = await db.query('select 1 from realtime.messages where id = $1', [probe.rows[0]?.id]);
      return seen.rows.length === 1;
    } finally {
      await db.query('rollback');
    }
  };
  /** As Realtime checks a presence track: the row inserted as the caller on the topic. */
  const tracksPresence = async (claims: Claims) => {
    try {
      await asCaller(
        claims,
        `insert into realtime.messages (topic, extension, event, private) values ($1, 'presence', 'probe', true)`,
        [topic()],
        { 'realtime.topic': topic() },
      );
      return true;
    } catch (error) {
      if ((error as { code?: unknown }).code === '42501') return false;
      throw error;
    }
  };
  const sees = async (claims: Claims, sql: string, values: unknown[]) =>
    (await asCaller(claims, sql, values)).length === 1;

  const REACHES: [string, (claims: Claims) => Promise<boolean>][] = [
    [
      "read (download, sign, list) an attachment object of the workspace's",
      (claims) =>
        sees(claims, `select 1 from storage.objects where bucket_id = 'attachments' and name = $1`, [
          attachmentObject,
        ]),
    ],
    [
      'read my own current avatar object',
      (claims) =>
        sees(claims, `select 1 from storage.objects where bucket_id = 'avatars' and name = $1`, [
          avatarObject,
        ]),
    ],
    ["join the workspace's private topic", readsTopic],
    ["track presence on the workspace's topic", tracksPresence],
    [
      "resolve one of the workspace's former project keys",
      (claims) =>
        sees(claims, `select 1 from private.project_former_keys where workspace_id = $1 and key = 'OLD'`, [
          fixture.workspaceId,
        ]),
    ],
  ];

  /** What ends the member's credential, and what restores it. */
  const ENDINGS: [string, string, string][] = [
    ['signed out', 'delete from auth.sessions where id = $1', ''],
    [
      'timed out',
      `update auth.sessions set not_after = now() - interval '1 second' where id = $1`,
      'update auth.sessions set not_after = null where id = $1',
    ],
    [
      'banned',
      `update auth.users set banned_until = now() + interval '1 day' where id = $1`,
      'update auth.users set banned_until = null where id = $1',
    ],
    [
      'soft-deleted',
      'update auth.users set deleted_at = now() where id = $1',
      'update auth.users set deleted_at = null where id = $1',
    ],
  ];

  describe.each(REACHES)('%s', (_, reaches) => {
    const memberClaims = () => ({
      sub: fixture.users.member,
      role: 'authenticated',
      aal: 'aal1',
      session_id: fixture.users.member,
    });

    test('with a live session: allowed', async () => {
      expect(await reaches(memberClaims())).toBe(true);
    });

    test.each(ENDINGS)('%s: denied', async (_ending, end, restore) => {
      const member = fixture.users.member;
      await db.query(end, [member]);
      try {
        expect(await reaches(memberClaims())).toBe(false);
      } finally {
        if (restore) await db.query(restore, [member]);
        await ensureLiveSession(db, member);
      }
    });
  });
});

describe('the check runs once per statement', () => {
  test('a read of 60 tasks asks it once, not once a row', async () => {
    const me = await newPerson();
    const project = await db.query<{ id: string }>(
      `insert into public.projects (workspace_id, key, name, created_by) values ($1, 'ONCE', 'Once', $2)
       returning id`,
      [me.workspaceId, me.id],
    );
    await db.query(
      `insert into public.tasks (project_id, title, position, created_by)
       select $1, 'Task ' || n, 'a' || lpad(n::text, 3, '0'), $2 from generate_series(1, 60) as n`,
      [project.rows[0]?.id, me.id],
    );
    await db.query('begin');
    try {
      // Function calls are counted only when asked to: a superuser's setting, made before the role.
      await db.query(`select set_config('track_functions', 'pl', true)`);
      await db.query(
        `select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)`,
        [JSON.stringify(sessionClaims(me))],
      );
      const tasks = await db.query('select id from public.tasks where workspace_id = $1', [me.workspaceId]);
      const calls = await db.query<{ calls: number }>(
        `select pg_stat_get_xact_function_calls('private.caller_credential_is_live()'::regprocedure)::int as calls`,
      );
      expect({ tasks: tasks.rows.length, calls: calls.rows[0]?.calls }).toEqual({ tasks: 60, calls: 1 });
    } finally {
      await db.query('rollback');
    }
  });
});

/** Who and what a fuzzed claim may name: people in every standing, their sessions and tokens. */
interface Cast {
  live: Person;
  other: Person;
  banned: Person;
  deleted: Person;
  /** The live person's sessions and tokens that no longer stand. */
  timedOutSession: string;
  signedOutSession: string;
  revokedToken: string;
  expiredToken: string;
}

async function createCast(): Promise<Cast> {
  const [live, other, banned, deleted] = [
    await newPerson(),
    await newPerson(),
    await newPerson(),
    await newPerson(),
  ];
  await run(`update auth.users set banned_until = now() + interval '1 day' where id = $1`, [banned.id]);
  await run('update auth.users set deleted_at = now() where id = $1', [deleted.id]);
  const timedOutSession = randomUUID();
  await run(
    `insert into auth.sessions (id, user_id, created_at, updated_at, aal, not_after)
     values ($1, $2, now(), now(), 'aal1', now() - interval '1 minute')`,
    [timedOutSession, live.id],
  );
  const revokedToken = await insertApiToken(live.id);
  await run('update public.api_tokens set revoked_at = now() where id = $1', [revokedToken]);
  return {
    live,
    other,
    banned,
    deleted,
    timedOutSession,
    signedOutSession: randomUUID(),
    revokedToken,
    expiredToken: await insertApiToken(live.id, '-1 minute'),
  };
}

/** The rule in words, as a model: the session (when the claims name one) or else the token stands. */
function standsByModel(cast: Cast, claims: Claims): boolean {
  const people = [cast.live, cast.other, cast.banned, cast.deleted];
  const caller = people.find((person) => person.id === claims.sub);
  if (!caller || caller === cast.banned || caller === cast.deleted) return false;
  const named = (value: unknown) => value !== undefined && value !== null;
  if (named(claims.session_id)) {
    return typeof claims.session_id === 'string' && claims.session_id.toLowerCase() === caller.sessionId;
  }
  if (named(claims.api_token_id)) {
    return typeof claims.api_token_id === 'string' && claims.api_token_id.toLowerCase() === caller.apiTokenId;
  }
  return false;
}

describe('fuzzed claims', () => {
  test('whatever the claims hold, the caller is admitted exactly when the rule says, and nothing raises', async () => {
    const cast = await createCast();
    const people = [cast.live, cast.other, cast.banned, cast.deleted];
    const absent = fc.constant(undefined);
    const junk = fc.oneof(
      fc.constant(null),
      fc.constant(''),
      fc.string(),
      fc.integer(),
      fc.boolean(),
      fc.constant({}),
      fc.uuid(),
    );
    const sessions = [
      ...people.map((person) => person.sessionId),
      cast.timedOutSession,
      cast.signedOutSession,
    ];
    const tokens = [...people.map((person) => person.apiTokenId), cast.revokedToken, cast.expiredToken];
    // Mostly one of the cast with their own session or token (else few runs would stand), often anything else.
    // Their own session weighs more than the rest, so that about a sixth of the runs stand (about 50 of 300):
    // with equal weights about a tenth did, and a run could fall below the 20 that prove both answers.
    const claims = fc
      .oneof(
        { weight: 4, arbitrary: fc.constantFrom(...people) },
        { weight: 1, arbitrary: fc.constant(undefined) },
      )
      .chain((caller) =>
        fc.record(
          {
            sub: caller ? fc.constant(caller.id) : fc.oneof(fc.uuid(), absent),
            role: fc.constant('authenticated'),
            aal: fc.constantFrom('aal1', 'aal2'),
            session_id: fc.oneof(absent, junk, fc.constantFrom(...sessions), {
              weight: 3,
              arbitrary: caller ? fc.constantFrom(caller.sessionId, caller.sessionId.toUpperCase()) : absent,
            }),
            api_token_id: fc.oneof(absent, junk, fc.constantFrom(...tokens), fc.constant(caller?.apiTokenId)),
          },
          { requiredKeys: ['role'] },
        ),
      );
    let admitted = 0;

    await fc.assert(
      fc.asyncProperty(claims, async (fuzzed) => {
        const stands = standsByModel(cast, fuzzed);
        const [answer] = await asCaller<{ stands: boolean }>(
          fuzzed,
          'select private.caller_credential_is_live() as stands',
        );
        expect(answer?.stands).toBe(stands);
        const profiles = await asCaller(fuzzed, 'select 1 from public.profiles');
        expect(profiles.length > 0).toBe(stands);
        if (stands) admitted += 1;
      }),
      { numRuns: 300, includeErrorInReport: true },
    );
    // Both answers were put to the test.
    expect(admitted).toBeGreaterThan(20);
    expect(admitted).toBeLessThan(280);
  });
});

/**
 * Files in the database (the files work): the buckets the migrations make, who may read which object of
 * storage.objects (nobody writes one as themselves: uploads go to signed URLs), the events an attachment
 * appends, and the sweep of uploads left pending.
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { beforeAll, describe, expect, test } from 'vitest';
import { ATTACHMENT_MAX_BYTES, AVATAR_MAX_BYTES } from '../../supabase/functions/_shared/limits.ts';
import { useTestDatabaseClient } from '../support/test-database.ts';
import { CALLERS, createRlsFixture, probe, type Caller, type RlsFixture } from './rls-fixture.ts';

const owner = useTestDatabaseClient();
let db: pg.Client;
let fixture: RlsFixture;

beforeAll(async () => {
  db = owner.db;
  fixture = await createRlsFixture(db);
});

async function insertObject(bucket: string, name: string, size: number, age = '0 seconds'): Promise<void> {
  await db.query(
    `insert into storage.objects (bucket_id, name, metadata, created_at)
     values ($1, $2, jsonb_build_object('size', $3::bigint, 'mimetype', 'image/png'), now() - $4::interval)`,
    [bucket, name, size, age],
  );
}

async function objectPathOf(attachmentId: string): Promise<string> {
  const result = await db.query<{ object_path: string }>(
    'select object_path from public.attachments where id = $1',
    [attachmentId],
  );
  return result.rows[0]?.object_path ?? '';
}

describe('the buckets', () => {
  test('attachments and avatars are private, with the docs/product.md#validation size limits and types', async () => {
    const result = await db.query(
      `select id, public, file_size_limit::int as limit, allowed_mime_types as types
       from storage.buckets where id in ('attachments', 'avatars') order by id`,
    );
    expect(result.rows).toEqual([
      {
        id: 'attachments',
        public: false,
        limit: ATTACHMENT_MAX_BYTES,
        types: [
          'image/png',
          'image/jpeg',
          'image/gif',
          'image/webp',
          'application/pdf',
          'text/plain',
          'text/markdown',
          'text/csv',
          'application/json',
          'application/zip',
        ],
      },
      {
        id: 'avatars',
        public: false,
        limit: AVATAR_MAX_BYTES,
        types: ['image/png', 'image/jpeg', 'image/webp'],
      },
    ]);
  });
});

describe('storage.objects policies', () => {
  let ownPath: string;
  let otherWorkspacePath: string;

  beforeAll(async () => {
    ownPath = await objectPathOf(fixture.attachmentIds.member);
    await insertObject('attachments', ownPath, 1234);
    const other = await db.query<{ object_path: string }>(
      `select object_path from public.attachments where workspace_id = $1 and status = 'ready' limit 1`,
      [fixture.otherWorkspaceId],
    );
    otherWorkspacePath = other.rows[0]?.object_path ?? '';
    await insertObject('attachments', otherWorkspacePath, 10);
    await insertObject('avatars', `${fixture.users.target}/${randomUUID()}`, 10);
  });

  const MEMBERS: readonly Caller[] = ['owner', 'admin', 'member', 'viewer'];
  const select = (bucket: string, name: () => string) => [
    'select 1 from storage.objects where bucket_id = $1 and name = $2',
    () => [bucket, name()],
  ];

  test.each(CALLERS)(
    "the workspace's attachment objects are readable by its members only: %s",
    async (caller) => {
      const [sql, values] = select('attachments', () => ownPath) as [string, () => unknown[]];
      const expected = MEMBERS.includes(caller) ? 'allowed' : 'denied';
      expect(await probe(db, fixture, caller, sql, values())).toBe(expected);
    },
  );

  test.each(CALLERS)("another workspace's attachment objects are unreadable: %s", async (caller) => {
    const [sql, values] = select('attachments', () => otherWorkspacePath) as [string, () => unknown[]];
    const expected = caller === 'outsider' ? 'allowed' : 'denied';
    expect(await probe(db, fixture, caller, sql, values())).toBe(expected);
  });

  test.each(CALLERS)(
    'an object whose attachment is pending (not checked by complete) is unreadable, even by its uploader: %s',
    async (caller) => {
      const id = randomUUID();
      const uploader = caller === 'anon' ? fixture.users.member : fixture.users[caller];
      const path = `${fixture.workspaceId}/${fixture.taskId}/${id}`;
      await db.query(
        `insert into public.attachments (id, workspace_id, task_id, object_path, file_name, content_type, size_bytes, uploaded_by)
         values ($1, $2, $3, $4, 'page.gif', 'image/gif', 10, $5)`,
        [id, fixture.workspaceId, fixture.taskId, path, uploader],
      );
      await insertObject('attachments', path, 10);
      const [sql, values] = select('attachments', () => path) as [string, () => unknown[]];
      expect(await probe(db, fixture, caller, sql, values())).toBe('denied');
    },
  );

  test.each(CALLERS)(
    "an object no attachment names (its task deleted, its upload refused) is unreadable, in one's own workspace too: %s",
    async (caller) => {
      const path = `${fixture.workspaceId}/${fixture.taskId}/${randomUUID()}`;
      await insertObject('attachments', path, 10);
      const [sql, values] = select('attachments', () => path) as [string, () => unknown[]];
      expect(await probe(db, fixture, caller, sql, values())).toBe('denied');
    },
  );

  test.each(CALLERS)("someone else's avatar object is unreadable directly: %s", async (caller) => {
    const sql = `select 1 from storage.objects where bucket_id = 'avatars' and name like $1 || '/%'`;
    expect(await probe(db, fixture, caller, sql, [fixture.users.target])).toBe('denied');
  });

  test("one may read one's own current avatar, not an upload of one's own that complete has not made it", async () => {
    const current = `${fixture.users.member}/${randomUUID()}`;
    const unchecked = `${fixture.users.member}/${randomUUID()}`;
    await insertObject('avatars', current, 10);
    await insertObject('avatars', unchecked, 10);
    await db.query('update public.profiles set avatar_path = $1 where user_id = $2', [
      current,
      fixture.users.member,
    ]);
    const sql = `select 1 from storage.objects where bucket_id = 'avatars' and name = $1`;
    expect(await probe(db, fixture, 'member', sql, [current])).toBe('allowed');
    expect(await probe(db, fixture, 'member', sql, [unchecked])).toBe('denied');
  });

  const writes: [string, (me: string) => [string, unknown[]]][] = [
    [
      'upload an attachment object',
      () => [
        `insert into storage.objects (bucket_id, name) values ('attachments', $1)`,
        [`${fixture.workspaceId}/${fixture.taskId}/${randomUUID()}`],
      ],
    ],
    [
      'upload an avatar object of my own',
      (me) => [
        `insert into storage.objects (bucket_id, name) values ('avatars', $1)`,
        [`${me}/${randomUUID()}`],
      ],
    ],
    [
      'overwrite an attachment object',
      () => [`update storage.objects set metadata = '{"size": 1}' where name = $1`, [ownPath]],
    ],
  ];

  describe.each(writes)('nobody may %s as themselves', (_, statement) => {
    test.each(CALLERS)('as %s', async (caller) => {
      const me = caller === 'anon' ? randomUUID() : fixture.users[caller];
      const [sql, values] = statement(me);
      expect(await probe(db, fixture, caller, sql, values)).toBe('denied');
    });
  });
});

describe('attachment events and the sweep', () => {
  /** Runs `work` as `userId` in a transaction that commits. */
  async function as<T>(userId: string, work: () => Promise<T>): Promise<T> {
    await db.query('begin');
    try {
      await db.query(
        `select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)`,
        [JSON.stringify({ sub: userId, role: 'authenticated', aal: 'aal1', session_id: userId })],
      );
      const result = await work();
      await db.query('commit');
      return result;
    } catch (error) {
      await db.query('rollback');
      throw error;
    }
  }

  const createAttachment = (userId: string) =>
    as(userId, async () => {
      const result = await db.query<{ id: string; object_path: string }>(
        `select id, object_path from private.create_attachment($1, 'notes.txt', 'text/plain', 5)`,
        [fixture.taskId],
      );
      const row = result.rows[0];
      if (!row) throw new Error('no attachment');
      return row;
    });

  const eventTypesOf = async (attachmentId: string) =>
    (
      await db.query<{ type: string }>(
        `select type from public.events where data ->> 'id' = $1 order by seq`,
        [attachmentId],
      )
    ).rows.map((row) => row.type);

  test('completing appends attachment.added; deleting a ready one appends attachment.deleted', async () => {
    const { member } = fixture.users;
    const { id, object_path } = await createAttachment(member);
    await expect(
      as(member, () => db.query('select 1 from private.complete_attachment($1)', [id])),
    ).rejects.toMatchObject({ hint: 'upload_incomplete' });
    await insertObject('attachments', object_path, 6);
    await expect(
      as(member, () => db.query('select 1 from private.complete_attachment($1)', [id])),
    ).rejects.toMatchObject({ hint: 'validation_failed' });
    expect(await eventTypesOf(id)).toEqual([]);

    await db.query(
      `update storage.objects set metadata = jsonb_build_object('size', 5, 'mimetype', 'text/html') where name = $1`,
      [object_path],
    );
    await expect(
      as(member, () => db.query('select 1 from private.complete_attachment($1)', [id])),
    ).rejects.toMatchObject({ hint: 'unsupported_media_type' });
    await db.query(
      `update storage.objects set metadata = jsonb_build_object('size', 5, 'mimetype', 'text/plain') where name = $1`,
      [object_path],
    );
    await as(member, () => db.query('select 1 from private.complete_attachment($1)', [id]));
    await as(member, () => db.query('select 1 from private.complete_attachment($1)', [id]));
    await as(member, () => db.query('select 1 from private.delete_attachment($1)', [id]));
    expect(await eventTypesOf(id)).toEqual(['attachment.added', 'attachment.deleted']);
    // Each went out on the workspace's realtime topic too, like every event of the log.
    const broadcasts = await db.query<{ event: string; topic: string }>(
      `select event, topic from realtime.messages where payload ->> 'resource_id' = $1 order by inserted_at, id`,
      [id],
    );
    expect(broadcasts.rows).toEqual([
      { event: 'attachment.added', topic: `workspace:${fixture.workspaceId}` },
      { event: 'attachment.deleted', topic: `workspace:${fixture.workspaceId}` },
    ]);
  });

  test('only its uploader completes a pending attachment', async () => {
    const { id, object_path } = await createAttachment(fixture.users.member);
    await insertObject('attachments', object_path, 5);
    await expect(
      as(fixture.users.admin, () => db.query('select 1 from private.complete_attachment($1)', [id])),
    ).rejects.toMatchObject({ hint: 'forbidden' });
  });

  /** The removals queued for these objects of `bucket`. */
  const queued = async (bucket: string, paths: readonly string[]) =>
    (
      await db.query<{ object_path: string }>(
        `select object_path from private.storage_removals where bucket_id = $1 and object_path = any($2)
         order by object_path`,
        [bucket, paths],
      )
    ).rows.map((row) => row.object_path);

  test('the sweep deletes pending attachments past their window, which queues their objects, and queues orphans', async () => {
    const fresh = await createAttachment(fixture.users.member);
    const stale = await createAttachment(fixture.users.member);
    // Pending, past its upload URL's two hours, not yet past the window: still counted, not swept.
    const late = await createAttachment(fixture.users.member);
    await db.query(
      `update public.attachments set created_at = now() - interval '2 hours 6 minutes' where id = $1`,
      [stale.id],
    );
    await db.query(
      `update public.attachments set created_at = now() - interval '2 hours 4 minutes' where id = $1`,
      [late.id],
    );
    await insertObject('attachments', stale.object_path, 5, '2 hours 6 minutes');
    const orphan = `${fixture.workspaceId}/${fixture.taskId}/${randomUUID()}`;
    await insertObject('attachments', orphan, 5, '2 hours');
    const youngOrphan = `${fixture.workspaceId}/${fixture.taskId}/${randomUUID()}`;
    await insertObject('attachments', youngOrphan, 5);

    const swept = await db.query<{ queued: number }>(
      'select private.sweep_attachment_uploads(100) as queued',
    );
    expect(swept.rows[0]?.queued).toBeGreaterThanOrEqual(2);
    const all = [fresh.object_path, stale.object_path, late.object_path, orphan, youngOrphan];
    expect(await queued('attachments', all)).toEqual([stale.object_path, orphan].sort());
    const left = await db.query<{ id: string }>('select id from public.attachments where id = any($1)', [
      [fresh.id, stale.id, late.id],
    ]);
    expect(left.rows.map((row) => row.id).sort()).toEqual([fresh.id, late.id].sort());
    // Swept again, nothing is queued twice.
    await db.query('select private.sweep_attachment_uploads(100)');
    expect(await queued('attachments', all)).toEqual([stale.object_path, orphan].sort());
  });

  test('deleting attachments, replacing or removing an avatar, and replacing an upload queue the objects that go', async () => {
    const { viewer } = fixture.users;
    const { id, object_path } = await createAttachment(fixture.users.member);
    await db.query('delete from public.attachments where id = $1', [id]);
    expect(await queued('attachments', [object_path])).toEqual([object_path]);

    const first = `${viewer}/${randomUUID()}`;
    const second = `${viewer}/${randomUUID()}`;
    await db.query('update public.profiles set avatar_path = $1 where user_id = $2', [first, viewer]);
    await db.query('update public.profiles set avatar_path = $1 where user_id = $2', [second, viewer]);
    expect(await queued('avatars', [first, second])).toEqual([first]);
    await db.query('update public.profiles set avatar_path = null where user_id = $1', [viewer]);
    expect(await queued('avatars', [first, second])).toEqual([first, second].sort());

    const started = await as(
      viewer,
      async () =>
        (
          await db.query<{ object_path: string }>(
            `select object_path from private.begin_avatar_upload('image/png', 10)`,
          )
        ).rows[0]?.object_path ?? '',
    );
    const restarted = await as(
      viewer,
      async () =>
        (
          await db.query<{ object_path: string }>(
            `select object_path from private.begin_avatar_upload('image/png', 10)`,
          )
        ).rows[0]?.object_path ?? '',
    );
    expect(await queued('avatars', [started, restarted])).toEqual([started]);
    // The upload that becomes the avatar is forgotten as an upload, not queued.
    await insertObject('avatars', restarted, 10);
    await as(viewer, () => db.query('select 1 from private.complete_avatar_upload($1)', [restarted]));
    expect(await queued('avatars', [restarted])).toEqual([]);
  });

  test('the avatar sweep queues objects no profile or upload under way names', async () => {
    const { viewer } = fixture.users;
    const current = `${viewer}/${randomUUID()}`;
    const replaced = `${viewer}/${randomUUID()}`;
    await insertObject('avatars', current, 10, '2 hours');
    await insertObject('avatars', replaced, 10, '2 hours');
    await db.query('update public.profiles set avatar_path = $1 where user_id = $2', [current, viewer]);
    await db.query('select private.sweep_avatar_uploads(100)');
    const paths = await queued('avatars', [current, replaced]);
    expect(paths).toContain(replaced);
    expect(paths).not.toContain(current);
  });
});

/**
 * Versions, ETags and conditional requests, plus JSON Merge Patch: a test-only versioned resource written
 * as a feature would write it, behind the real middleware stack, on a table of this file's database.
 */
import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AppEnv, AuthenticatedEnv } from '../../supabase/functions/api/app-env.ts';
import { jsonWithETag, readIfMatch } from '../../supabase/functions/api/http/conditional.ts';
import { readMergePatch } from '../../supabase/functions/api/http/merge-patch.ts';
import type { Database, Sql } from '../../supabase/functions/_shared/db.ts';
import { AppError } from '../../supabase/functions/_shared/errors.ts';
import type { Principal } from '../../supabase/functions/_shared/principal.ts';
import { conditionalWriteFailure, type ExpectedVersion } from '../../supabase/functions/_shared/versions.ts';
import { useTestApp } from '../support/api-app.ts';
import { callTestRoute, problemOf, type ApiResponse } from '../support/api-request.ts';
import { createTestUser, withBearer, type TestUser } from '../support/test-users.ts';
import { asService } from '../support/service-transaction.ts';

// schemas: what a PATCH may set; `tag` may be cleared, `body` may not.
const WritableNote = z.strictObject({
  body: z.string().min(1).max(100),
  tag: z.string().max(20).nullable(),
});
type NoteChanges = Partial<z.output<typeof WritableNote>>;

// queries
interface NoteRow extends Record<string, unknown> {
  id: string;
  body: string;
  tag: string | null;
  version: number;
}
/** The test route's answer, which the contract does not describe: parsed, so a wrong shape fails here. */
const NoteBody = z.looseObject({
  id: z.string(),
  body: z.string(),
  tag: z.string().nullable(),
  version: z.number(),
});

async function selectNote(sql: Sql, id: string): Promise<NoteRow | undefined> {
  const [row] = await sql.query<NoteRow>(
    'select id, body, tag, version from public.conditional_test_notes where id = $1',
    [id],
  );
  return row;
}

async function selectNoteVersion(sql: Sql, id: string): Promise<number | undefined> {
  return (await selectNote(sql, id))?.version;
}

async function updateNoteRow(
  sql: Sql,
  id: string,
  changes: NoteChanges,
  expected: ExpectedVersion,
): Promise<NoteRow | undefined> {
  const [row] = await sql.query<NoteRow>(
    `update public.conditional_test_notes
     set body = case when $3 then $4 else body end,
         tag = case when $5 then $6 else tag end,
         version = version + 1
     where id = $1 and ($2::integer[] is null or version = any($2::integer[]))
     returning id, body, tag, version`,
    [id, expected, 'body' in changes, changes.body, 'tag' in changes, changes.tag],
  );
  return row;
}

async function deleteNoteRow(sql: Sql, id: string, expected: ExpectedVersion): Promise<boolean> {
  const rows = await sql.query(
    `delete from public.conditional_test_notes
     where id = $1 and ($2::integer[] is null or version = any($2::integer[]))
     returning id`,
    [id, expected],
  );
  return rows.length === 1;
}

// service
const NOT_FOUND = 'No note has this id.';
const toNote = (row: NoteRow) => ({ object: 'test_note' as const, ...row });

function getNote(db: Database, principal: Principal, id: string) {
  return db.asCaller(principal, async (sql) => {
    const row = await selectNote(sql, id);
    if (!row) throw new AppError('not_found', NOT_FOUND);
    return toNote(row);
  });
}

function updateNote(
  db: Database,
  principal: Principal,
  id: string,
  changes: NoteChanges,
  expected: ExpectedVersion,
) {
  return db.asCaller(principal, async (sql) => {
    const row = await updateNoteRow(sql, id, changes, expected);
    if (row) return toNote(row);
    throw conditionalWriteFailure(await selectNoteVersion(sql, id), NOT_FOUND);
  });
}

function deleteNote(db: Database, principal: Principal, id: string, expected: ExpectedVersion) {
  return db.asCaller(principal, async (sql) => {
    if (await deleteNoteRow(sql, id, expected)) return;
    throw conditionalWriteFailure(await selectNoteVersion(sql, id), NOT_FOUND);
  });
}

// routes
const routes = new Hono<AuthenticatedEnv>()
  .get('/test-notes/:id', async (c) =>
    jsonWithETag(c, await getNote(api.db, c.var.principal, c.req.param('id'))),
  )
  .patch('/test-notes/:id', async (c) => {
    const changes = await readMergePatch(c, WritableNote);
    const note = await updateNote(api.db, c.var.principal, c.req.param('id'), changes, readIfMatch(c));
    return jsonWithETag(c, note);
  })
  .delete('/test-notes/:id', async (c) => {
    await deleteNote(api.db, c.var.principal, c.req.param('id'), readIfMatch(c));
    return c.body(null, 204);
  });

const api = useTestApp({ extraRoutes: new Hono<AppEnv>().route('/', routes) });

let writer: TestUser;
beforeAll(async () => {
  writer = await createTestUser(api.db);
  await asService(api.db, async (sql) => {
    await sql.query(
      `create table public.conditional_test_notes (
         id uuid primary key,
         body text not null,
         tag text,
         version integer not null default 1
       )`,
    );
    await sql.query('alter table public.conditional_test_notes enable row level security');
    await sql.query('grant select, update, delete on public.conditional_test_notes to authenticated');
    await sql.query(
      'create policy "Everyone may do anything" on public.conditional_test_notes to authenticated using (true)',
    );
  });
});

async function newNote(body = 'first draft', tag: string | null = 'draft'): Promise<string> {
  const id = randomUUID();
  await asService(api.db, (sql) =>
    sql.query('insert into public.conditional_test_notes (id, body, tag) values ($1, $2, $3)', [
      id,
      body,
      tag,
    ]),
  );
  return id;
}

async function noteInDatabase(id: string): Promise<NoteRow | undefined> {
  return asService(api.db, (sql) => selectNote(sql, id));
}

const path = (id: string) => `/api/v1/test-notes/${id}`;

function get(id: string, headers: Record<string, string> = {}): Promise<ApiResponse> {
  return callTestRoute(api.app, path(id), withBearer(writer.accessToken, { headers }));
}

function patch(
  id: string,
  changes: unknown,
  headers: Record<string, string> = {},
  contentType = 'application/merge-patch+json',
): Promise<ApiResponse> {
  return callTestRoute(
    api.app,
    path(id),
    withBearer(writer.accessToken, {
      method: 'PATCH',
      headers: { 'Content-Type': contentType, ...headers },
      body: JSON.stringify(changes),
    }),
  );
}

function remove(id: string, headers: Record<string, string> = {}): Promise<ApiResponse> {
  return callTestRoute(api.app, path(id), withBearer(writer.accessToken, { method: 'DELETE', headers }));
}

function expectPreconditionFailed(response: ApiResponse, currentVersion: number): void {
  expect(response.status).toBe(412);
  expect(problemOf(response)).toMatchObject({ code: 'precondition_failed', current_version: currentVersion });
}

describe('ETag', () => {
  it('is the version as a strong tag, on the resource answered', async () => {
    const id = await newNote();
    const response = await get(id);
    expect(response.status).toBe(200);
    expect(response.headers.get('etag')).toBe('"1"');
    expect(response.body).toMatchObject({ id, version: 1 });
  });
});

describe('If-None-Match on GET', () => {
  it.each([['"1"'], ['W/"1"'], ['"7", "1"'], ['*']])(
    'answers %s with 304, the ETag and no body',
    async (tags) => {
      const id = await newNote();
      const response = await get(id, { 'If-None-Match': tags });
      expect(response.status).toBe(304);
      expect(response.text).toBe('');
      expect(response.headers.get('etag')).toBe('"1"');
      expect(response.headers.get('content-type')).toBeNull();
    },
  );

  it('answers the resource once it has changed', async () => {
    const id = await newNote();
    expect((await patch(id, { body: 'second draft' })).status).toBe(200);
    const response = await get(id, { 'If-None-Match': '"1"' });
    expect(response.status).toBe(200);
    expect(response.headers.get('etag')).toBe('"2"');
    expect(response.body).toMatchObject({ body: 'second draft', version: 2 });
  });

  it('answers 400 to a malformed field, and 404 for a note that does not exist', async () => {
    const id = await newNote();
    const malformed = await get(id, { 'If-None-Match': '1' });
    expect(malformed.status).toBe(400);
    expect(problemOf(malformed).errors).toEqual([
      expect.objectContaining({ path: 'header.if-none-match', code: 'invalid_format' }),
    ]);
    expect((await get(randomUUID(), { 'If-None-Match': '*' })).status).toBe(404);
  });

  it('answers a 64 KB hostile field with 400 at once, without parsing it', async () => {
    const id = await newNote();
    const started = performance.now();
    // Blanks after a comma: HTTP trims a field's ends, not its inside.
    const response = await get(id, { 'If-None-Match': `"1",${' '.repeat(65_536)}x` });
    // The parser once took seconds of CPU on this; a generous bound, not a benchmark.
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(response.status).toBe(400);
    expect(problemOf(response).errors).toEqual([
      expect.objectContaining({ path: 'header.if-none-match', code: 'too_long' }),
    ]);
  });

  it('answers a well-formed field longer than the limit with 400 too, even when it names the version', async () => {
    const id = await newNote();
    const response = await get(id, { 'If-None-Match': `${'"7", '.repeat(2_000)}"1"` });
    expect(response.status).toBe(400);
    expect(problemOf(response).errors).toEqual([
      expect.objectContaining({ path: 'header.if-none-match', code: 'too_long' }),
    ]);
  });
});

describe('If-Match on PATCH', () => {
  it('applies the change to the version named and answers the new ETag', async () => {
    const id = await newNote();
    const response = await patch(id, { body: 'edited' }, { 'If-Match': '"1"' });
    expect(response.status).toBe(200);
    expect(response.headers.get('etag')).toBe('"2"');
    expect(await noteInDatabase(id)).toMatchObject({ body: 'edited', version: 2 });
  });

  it('refuses a stale version with 412 and the current version, changing nothing', async () => {
    const id = await newNote();
    expect((await patch(id, { body: 'edited' }, { 'If-Match': '"1"' })).status).toBe(200);
    expectPreconditionFailed(await patch(id, { body: 'lost update' }, { 'If-Match': '"1"' }), 2);
    expect(await noteInDatabase(id)).toMatchObject({ body: 'edited', version: 2 });
  });

  it('lets exactly one of many concurrent PATCHes with the same If-Match win', async () => {
    const id = await newNote();
    const bodies = Array.from({ length: 10 }, (_, index) => `contender ${index}`);
    const responses = await Promise.all(bodies.map((body) => patch(id, { body }, { 'If-Match': '"1"' })));
    const winners = responses.filter((response) => response.status === 200);
    expect(winners).toHaveLength(1);
    for (const loser of responses.filter((response) => response.status !== 200)) {
      expectPreconditionFailed(loser, 2);
    }
    const winner = NoteBody.parse(winners[0]?.body);
    expect(await noteInDatabase(id)).toMatchObject({ body: winner.body, version: 2 });
  });

  it.each([
    ['no If-Match', {}],
    ['If-Match: *', { 'If-Match': '*' }],
    ['a list naming the current version', { 'If-Match': '"9", "1"' }],
  ])('applies the change with %s', async (_name, headers) => {
    const id = await newNote();
    expect((await patch(id, { body: 'edited' }, headers)).status).toBe(200);
    expect(await noteInDatabase(id)).toMatchObject({ body: 'edited', version: 2 });
  });

  it.each([
    ['a weak tag (If-Match compares strongly)', 'W/"1"'],
    ['a tag that names no version', '"one"'],
  ])('refuses %s with 412', async (_name, tag) => {
    const id = await newNote();
    expectPreconditionFailed(await patch(id, { body: 'edited' }, { 'If-Match': tag }), 1);
    expect(await noteInDatabase(id)).toMatchObject({ body: 'first draft', version: 1 });
  });

  it('answers 400 to a malformed If-Match, changing nothing', async () => {
    const id = await newNote();
    const response = await patch(id, { body: 'edited' }, { 'If-Match': '1' });
    expect(response.status).toBe(400);
    expect(problemOf(response)).toMatchObject({
      code: 'bad_request',
      detail: 'The If-Match header is malformed.',
    });
    expect(await noteInDatabase(id)).toMatchObject({ body: 'first draft', version: 1 });
  });

  it('answers 404, not 412, for a note that does not exist', async () => {
    const response = await patch(randomUUID(), { body: 'edited' }, { 'If-Match': '"1"' });
    expect(response.status).toBe(404);
    expect(problemOf(response).detail).toBe(NOT_FOUND);
  });
});

describe('If-Match on DELETE', () => {
  it('refuses a stale version with 412, deletes at the current one, then answers 404', async () => {
    const id = await newNote();
    expect((await patch(id, { tag: 'final' })).status).toBe(200);
    expectPreconditionFailed(await remove(id, { 'If-Match': '"1"' }), 2);
    expect(await noteInDatabase(id)).toBeDefined();
    expect((await remove(id, { 'If-Match': '"2"' })).status).toBe(204);
    expect(await noteInDatabase(id)).toBeUndefined();
    expect((await remove(id, { 'If-Match': '"2"' })).status).toBe(404);
  });
});

describe('JSON Merge Patch', () => {
  it('clears a nullable field with null and leaves absent fields alone', async () => {
    const id = await newNote('keep me', 'draft');
    expect((await patch(id, { tag: null })).status).toBe(200);
    expect(await noteInDatabase(id)).toMatchObject({ body: 'keep me', tag: null });
  });

  it('accepts application/json as well as application/merge-patch+json', async () => {
    const id = await newNote();
    expect((await patch(id, { tag: 'plain' }, {}, 'application/json; charset=utf-8')).status).toBe(200);
    expect(await noteInDatabase(id)).toMatchObject({ tag: 'plain' });
  });

  it('refuses another JSON type, such as a JSON Patch, with 415', async () => {
    const id = await newNote();
    const operations = [{ op: 'replace', path: '/body', value: 'x' }];
    const response = await patch(id, operations, {}, 'application/json-patch+json');
    expect(response.status).toBe(415);
    expect(problemOf(response).code).toBe('unsupported_media_type');
    expect(await noteInDatabase(id)).toMatchObject({ body: 'first draft', version: 1 });
  });

  it.each([
    ['null for a field that cannot be empty', { body: null }, [['body.body', 'invalid_type']]],
    [
      'fields that are not writable',
      { version: 9, id: 'x', body: 'ok' },
      [
        ['body.version', 'unknown_field'],
        ['body.id', 'unknown_field'],
      ],
    ],
    ['a document that is not an object', ['body'], [['body', 'invalid_type']]],
  ])('answers 422 to %s, naming each field and changing nothing', async (_name, changes, errors) => {
    const id = await newNote();
    const response = await patch(id, changes);
    expect(response.status).toBe(422);
    const problem = problemOf(response);
    expect(problem.code).toBe('validation_failed');
    expect(problem.errors?.map((error) => [error.path, error.code])).toEqual(errors);
    expect(await noteInDatabase(id)).toMatchObject({ body: 'first draft', tag: 'draft', version: 1 });
  });
});

/**
 * Cursor pagination, end to end: a test-only list route written as a feature would write it (route →
 * service → queries, keyset SQL), behind the real middleware stack, on a table of this file's database.
 */
import { Hono } from 'hono';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AppEnv, AuthenticatedEnv } from '../../supabase/functions/api/app-env.ts';
import { pageParameters, listResponse } from '../../supabase/functions/api/http/pagination.ts';
import { queryOf } from '../../supabase/functions/api/http/query-params.ts';
import type { Database, Sql } from '../../supabase/functions/_shared/db.ts';
import {
  CreatedAtIdKey,
  pageOf,
  rowsToFetch,
  type Page,
  type PageRequest,
  type SortKey,
} from '../../supabase/functions/_shared/pages.ts';
import type { Principal } from '../../supabase/functions/_shared/principal.ts';
import { useTestApp } from '../support/api-app.ts';
import { callTestRoute, problemOf, type ApiResponse } from '../support/api-request.ts';
import { createTestUser, withBearer, type TestUser } from '../support/test-users.ts';
import { asService } from '../support/service-transaction.ts';

// queries: the keyset statement every list uses.
interface ItemRow extends Record<string, unknown> {
  id: string;
  label: string;
  sort_key: SortKey;
}

function selectItems(sql: Sql, page: PageRequest<CreatedAtIdKey>, label: string | undefined) {
  return sql.query<ItemRow>(
    `select id, label, json_build_array(created_at, id) as sort_key
     from public.pagination_test_items
     where ($1::timestamptz is null or (created_at, id) > ($1::timestamptz, $2::uuid))
       and ($3::text is null or label = $3)
     order by created_at, id
     limit $4`,
    [page.cursor?.[0] ?? null, page.cursor?.[1] ?? null, label ?? null, rowsToFetch(page)],
  );
}

// service
interface Item {
  object: 'test_item';
  id: string;
  label: string;
}

function listItems(
  db: Database,
  principal: Principal,
  page: PageRequest<CreatedAtIdKey>,
  label: string | undefined,
): Promise<Page<Item>> {
  return db.asCaller(principal, async (sql) =>
    pageOf(await selectItems(sql, page, label), page, (row) => ({
      object: 'test_item',
      id: row.id,
      label: row.label,
    })),
  );
}

// route
const ListItemsQuery = z.object({ ...pageParameters(CreatedAtIdKey), label: z.string().optional() });

const routes = new Hono<AuthenticatedEnv>().get('/test-items', queryOf(ListItemsQuery), async (c) => {
  const { limit, cursor, label } = c.var.query;
  return listResponse(c, await listItems(api.db, c.var.principal, { limit, cursor }, label));
});

const api = useTestApp({ extraRoutes: new Hono<AppEnv>().route('/', routes) });
const ITEMS = '/api/v1/test-items';

let reader: TestUser;
beforeAll(async () => {
  reader = await createTestUser(api.db);
  await asService(api.db, async (sql) => {
    await sql.query(
      `create table public.pagination_test_items (
         id uuid primary key default gen_random_uuid(),
         label text not null,
         created_at timestamptz not null default clock_timestamp()
       )`,
    );
    await sql.query('create index on public.pagination_test_items (created_at, id)');
    await sql.query('alter table public.pagination_test_items enable row level security');
    await sql.query('grant select on public.pagination_test_items to authenticated');
    await sql.query(
      'create policy "Everyone reads test items" on public.pagination_test_items for select to authenticated using (true)',
    );
  });
});

/** The test route's list, which the contract does not describe: parsed, so a wrong shape fails here. */
const ListBody = z.looseObject({
  object: z.literal('list'),
  data: z.array(z.looseObject({ object: z.literal('test_item'), id: z.string(), label: z.string() })),
  next_cursor: z.string().nullable(),
});

const list = (query = '') => callTestRoute(api.app, `${ITEMS}${query}`, withBearer(reader.accessToken));
const bodyOf = (response: ApiResponse) => ListBody.parse(response.body);

async function insertItems(label: string, count: number, createdAt = 'clock_timestamp()'): Promise<string[]> {
  const rows = await asService(api.db, (sql) =>
    sql.query<{ id: string }>(
      `insert into public.pagination_test_items (label, created_at)
       select $1, ${createdAt} from generate_series(1, $2) returning id`,
      [label, count],
    ),
  );
  return rows.map((row) => row.id);
}

/** Follows next_cursor from the first page to the last; checks the Link header on the way. */
async function walk(query: string): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let response = await list(`?${query}`);
  for (let pages = 1; ; pages += 1) {
    expect(response.status).toBe(200);
    const body = bodyOf(response);
    ids.push(...body.data.map((item) => item.id));
    if (body.next_cursor === null) {
      expect(response.headers.get('link')).toBeNull();
      return { ids, pages };
    }
    const link = response.headers.get('link');
    expect(link).toBe(`<?${query}&cursor=${body.next_cursor}>; rel="next"`);
    response = await list(`?${query}&cursor=${body.next_cursor}`);
  }
}

describe('a cursor walk', () => {
  it('over 1,000 rows sees each exactly once while rows are inserted before and after the cursor', async () => {
    // Half the rows share one timestamp (a single statement's now()), so only the id orders them.
    const walked = [...(await insertItems('walked', 500, 'now()')), ...(await insertItems('walked', 500))];
    let walking = true;
    const insertMeanwhile = async () => {
      let inserted = 0;
      while (walking) {
        await insertItems('walked', 3);
        await insertItems('walked', 2, "'2000-01-01T00:00:00Z'::timestamptz");
        inserted += 5;
      }
      return inserted;
    };
    const [result, insertedMeanwhile] = await Promise.all([
      walk('label=walked&limit=37').finally(() => {
        walking = false;
      }),
      insertMeanwhile(),
    ]);
    expect(insertedMeanwhile).toBeGreaterThan(0);
    expect(new Set(result.ids).size).toBe(result.ids.length);
    const seen = new Set(result.ids);
    expect(walked.filter((id) => !seen.has(id))).toEqual([]);
    expect(result.pages).toBeGreaterThanOrEqual(Math.ceil(1000 / 37));
  });

  it('answers the first page with the default limit, and the list in key order', async () => {
    const ids = await insertItems('ordered', 60);
    const first = await list('?label=ordered');
    expect(first.status).toBe(200);
    const body = bodyOf(first);
    expect(body.object).toBe('list');
    expect(body.data.map((item) => item.id)).toEqual(ids.slice(0, 50));
    const rest = await list(`?label=ordered&cursor=${body.next_cursor}`);
    expect(bodyOf(rest).data.map((item) => item.id)).toEqual(ids.slice(50));
    expect(bodyOf(rest).next_cursor).toBeNull();
  });

  it('ends with next_cursor null and no Link when the last page is exactly full', async () => {
    await insertItems('exact', 4);
    const first = await list('?label=exact&limit=2');
    const second = await list(`?label=exact&limit=2&cursor=${bodyOf(first).next_cursor}`);
    expect(bodyOf(second).data).toHaveLength(2);
    expect(bodyOf(second).next_cursor).toBeNull();
    expect(second.headers.get('link')).toBeNull();
  });

  it('answers an empty list as a list', async () => {
    const response = await list('?label=nothing-has-this-label');
    expect(response.body).toEqual({ object: 'list', data: [], next_cursor: null });
  });

  it('takes limit=1 and limit=200', async () => {
    await insertItems('bounds', 201);
    expect(bodyOf(await list('?label=bounds&limit=1')).data).toHaveLength(1);
    expect(bodyOf(await list('?label=bounds&limit=200')).data).toHaveLength(200);
  });
});

describe('the Link header', () => {
  it('names the next page relative to the request, keeping its other parameters in order', async () => {
    await insertItems('linked', 3);
    const response = await list('?limit=2&label=linked');
    const { next_cursor } = bodyOf(response);
    expect(response.headers.get('link')).toBe(`<?limit=2&label=linked&cursor=${next_cursor}>; rel="next"`);
  });
});

describe('bad page parameters', () => {
  it.each([
    ['0', 'too_small', 'Query parameter "limit": must be at least 1.'],
    ['201', 'too_large', 'Query parameter "limit": must be at most 200.'],
    ['ten', 'invalid_format', 'Query parameter "limit": must be a whole number.'],
    ['-5', 'invalid_format', 'Query parameter "limit": must be a whole number.'],
  ])('answer limit=%s with 400 bad_request', async (limit, code, detail) => {
    const response = await list(`?limit=${limit}`);
    expect(response.status).toBe(400);
    const problem = problemOf(response);
    expect(problem).toMatchObject({ code: 'bad_request', detail });
    expect(problem.errors).toEqual([expect.objectContaining({ path: 'query.limit', code })]);
  });

  it.each([
    ['garbage', 'not a cursor!', 'it is not base64url'],
    [
      'a cursor of another list',
      Buffer.from('[1,"abc"]').toString('base64url'),
      'its position does not fit this list',
    ],
    [
      'a tampered cursor',
      Buffer.from('[1,"2026-11-22T12:00:00Z","not-a-uuid"]').toString('base64url'),
      'its position does not fit this list',
    ],
    // Well-formed ISO 8601, but no timestamp Postgres can read: there is no year 0 (1 BC is 0001 BC).
    [
      'a cursor from the year 0000',
      Buffer.from('[1,"0000-01-01T00:00:00Z","5c3e2a10-8b7d-4f6e-9a01-3d2c1b0a9f8e"]').toString('base64url'),
      'its position does not fit this list',
    ],
    [
      'a cursor whose offset is out of range',
      Buffer.from('[1,"2026-11-22T12:00:00+23:59","5c3e2a10-8b7d-4f6e-9a01-3d2c1b0a9f8e"]').toString(
        'base64url',
      ),
      'its position does not fit this list',
    ],
  ])('answer %s with 400 bad_request and a precise detail', async (_name, cursor, reason) => {
    const response = await list(`?cursor=${encodeURIComponent(cursor)}`);
    expect(response.status).toBe(400);
    const problem = problemOf(response);
    expect(problem.code).toBe('bad_request');
    expect(problem.detail).toContain(`Query parameter "cursor": is not a cursor this list issued: ${reason}`);
    expect(problem.errors).toEqual([expect.objectContaining({ path: 'query.cursor' })]);
  });

  it('answer a cursor of another format version by saying to start again', async () => {
    const cursor = Buffer.from(
      JSON.stringify([9, '2026-11-22T12:00:00Z', '5c3e2a10-8b7d-4f6e-9a01-3d2c1b0a9f8e']),
    ).toString('base64url');
    const problem = problemOf(await list(`?cursor=${cursor}`));
    expect(problem.detail).toContain('start again from the first page');
  });
});

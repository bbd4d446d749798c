/**
 * The bench's "bare" baseline: the API's task list SQL behind a plain Deno.serve handler on npm:pg, with
 * no framework, no authentication, no rate limit and no RLS transaction (one statement as the table
 * owner). Run by bench/bare-handler-process.ts with the repository's deno and deno.json.
 * Usage: deno run … bench/bare-handler.ts <port>, with BENCH_DB_URL set.
 * GET /tasks?project=<id>&status=<status>&limit=<n> answers the page as the API shapes it.
 */
import pg from 'pg';
import { pageOf } from '../supabase/functions/_shared/pages.ts';
import { selectTasks } from '../supabase/functions/api/tasks/tasks.queries.ts';
import type { TaskStatus } from '../supabase/functions/api/tasks/tasks.schemas.ts';
import { columnFilter, LIST_LIMIT, LISTED_STATUS } from './list-query.ts';
import { rawSql } from './raw-sql.ts';

const port = Number(Deno.args[0]);
const pool = new pg.Pool({ connectionString: Deno.env.get('BENCH_DB_URL'), max: 5 });
const sql = rawSql(pool);

Deno.serve(
  { hostname: '127.0.0.1', port, onListen: () => console.log(`listening on ${port}`) },
  async (request) => {
    const query = new URL(request.url).searchParams;
    const page = { limit: Number(query.get('limit') ?? LIST_LIMIT) };
    const status = (query.get('status') ?? LISTED_STATUS) as TaskStatus;
    const rows = await selectTasks(sql, query.get('project') ?? '', columnFilter(status), 'position', page);
    return Response.json(pageOf(rows, page, (row) => row.task));
  },
);

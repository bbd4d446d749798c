/**
 * The bench's "bare" baseline: the API's task list SQL behind a plain Deno.serve handler on npm:pg, with
 * no framework, no authentication, no rate limit and no RLS transaction (one statement as the table
 * owner), on a pool of the API's size (createDatabase's default). Written as an Edge Function is: it
 * calls Deno.serve(handler) and reads SUPABASE_DB_URL, and local/functions/deno-host.ts decides where it
 * listens. The bench runs it twice: on its own port, called directly (bench/bare-handler-process.ts), and
 * as the function `bare` beside `api` behind the stand-in's gateway (bench/bench-project.ts).
 * GET …?project=<id>&status=<status>&limit=<n> (any path) answers the page as the API shapes it.
 */
import pg from 'pg';
import { pageOf } from '../supabase/functions/_shared/pages.ts';
import { selectTasks } from '../supabase/functions/api/tasks/tasks.queries.ts';
import type { TaskStatus } from '../supabase/functions/_shared/api-types.ts';
import { columnFilter, LIST_LIMIT, LISTED_STATUS } from './list-query.ts';
import { rawSql } from './raw-sql.ts';

const pool = new pg.Pool({ connectionString: Deno.env.get('SUPABASE_DB_URL'), max: 3 });
const sql = rawSql(pool);

Deno.serve(async (request) => {
  const query = new URL(request.url).searchParams;
  const page = { limit: Number(query.get('limit') ?? LIST_LIMIT) };
  const status = (query.get('status') ?? LISTED_STATUS) as TaskStatus;
  const rows = await selectTasks(sql, query.get('project') ?? '', columnFilter(status), 'position', page);
  return Response.json(pageOf(rows, page, (row) => row.task));
});

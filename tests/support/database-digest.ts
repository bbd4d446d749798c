/**
 * A fingerprint of everything in the `public` schema, to prove that a request changed nothing: one md5
 * per table over its rows in a fixed order, read as the service (RLS would hide rows from a caller).
 * Compare two digests with `expect(after).toEqual(before)`: a difference names the table that changed.
 */
import type { Database } from '../../supabase/functions/_shared/db.ts';
import { asService } from './service-transaction.ts';

/**
 * Columns that record that a request happened rather than what it did: authenticating with an API token
 * sets its `last_used_at` (at most once a minute), whatever the request then does.
 */
const BOOKKEEPING_COLUMNS = ['last_used_at'];

/** Tables outside `public` that hold what a request did, by qualified name. */
const OTHER_TABLES = [
  'private.avatar_uploads',
  'private.deleted_tasks',
  'private.deleted_task_attachments',
  'private.webhook_secrets',
];

/** Table name → md5 of its rows (null for an empty table). */
export type DatabaseDigest = Record<string, string | null>;

export async function digestPublicTables(db: Database): Promise<DatabaseDigest> {
  return asService(db, async (sql) => {
    const tables = await sql.query<{ name: string }>(
      `select table_name as name from information_schema.tables
       where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
    );
    // Beside public: the avatar uploads under way and the deleted tasks kept for a restore, which a
    // request's effect may be all about.
    tables.push(...OTHER_TABLES.map((name) => ({ name })));
    if (tables.length === 0) return {};
    const perTable = tables.map(
      ({ name }) =>
        `select ${literal(name)} as name,
           (select md5(string_agg(r.row, '|' order by r.row))
            from (select (to_jsonb(t) - $1::text[])::text as row from ${qualified(name)} t) r) as digest`,
    );
    const rows = await sql.query<{ name: string; digest: string | null }>(perTable.join(' union all '), [
      BOOKKEEPING_COLUMNS,
    ]);
    return Object.fromEntries(rows.map(({ name, digest }) => [name, digest]));
  });
}

function qualified(name: string): string {
  return name.includes('.') ? name : `public.${identifier(name)}`;
}

function identifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

function literal(name: string): string {
  return `'${name.replaceAll("'", "''")}'`;
}

/**
 * Migrates a fresh database with the migrations of a project folder and prints its schema as normalized,
 * sorted text, one fact a line, from the catalogs (the embedded PostgreSQL has no pg_dump): schemas,
 * extensions, types, tables and their columns, constraints, indexes, triggers, policies, functions, grants,
 * default privileges, publications and cron jobs. Two dumps diff line by line:
 *
 *   npx tsx scripts/dump-schema.ts [project-dir] > before.txt
 */
import pg from 'pg';
import { prepareDatabase } from '../local/postgres/prepare-database.ts';
import { startTestCluster } from '../tests/support/test-cluster.ts';

const SYSTEM = `('pg_catalog', 'information_schema', 'pg_toast', 'supabase_migrations')`;

/** An ACL as sorted `grantee=privileges/grantor` items, so that the order of GRANTs does not matter. */
const acl = (column: string) => `coalesce((
  select string_agg(coalesce(r.rolname, 'PUBLIC') || '=' || a.privilege_type || case when a.is_grantable then '*' else '' end
    || '/' || g.rolname, ' ' order by coalesce(r.rolname, 'PUBLIC'), a.privilege_type)
  from aclexplode(${column}) a
  left join pg_roles r on r.oid = a.grantee
  join pg_roles g on g.oid = a.grantor), 'default')`;

const QUERIES: Record<string, string> = {
  schema: `select n.nspname || ' owner=' || pg_get_userbyid(n.nspowner) || ' acl=' || ${acl('n.nspacl')}
    from pg_namespace n where n.nspname not in ${SYSTEM} and n.nspname not like 'pg_%'`,
  extension: `select e.extname || ' schema=' || n.nspname || ' version=' || e.extversion
    from pg_extension e join pg_namespace n on n.oid = e.extnamespace`,
  type: `select n.nspname || '.' || t.typname || ' kind=' || t.typtype::text || ' acl=' || ${acl('t.typacl')}
      || coalesce(' labels=' || (select string_agg(e.enumlabel, ',' order by e.enumsortorder)
        from pg_enum e where e.enumtypid = t.oid), '')
    from pg_type t join pg_namespace n on n.oid = t.typnamespace
    where n.nspname not in ${SYSTEM} and t.typtype in ('e', 'd', 'r', 'm')
       or (t.typtype = 'c' and n.nspname not in ${SYSTEM}
           and (select c.relkind from pg_class c where c.oid = t.typrelid) = 'c')`,
  relation: `select n.nspname || '.' || c.relname || ' kind=' || c.relkind::text || ' persistence=' || c.relpersistence::text
      || ' rls=' || c.relrowsecurity || ' force_rls=' || c.relforcerowsecurity
      || ' owner=' || pg_get_userbyid(c.relowner) || ' options=' || coalesce(c.reloptions::text, '')
      || ' acl=' || ${acl('c.relacl')}
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname not in ${SYSTEM} and c.relkind in ('r', 'p', 'v', 'm', 'S', 'f')`,
  column: `select n.nspname || '.' || c.relname || ' #' || lpad(a.attnum::text, 3, '0') || ' ' || a.attname
      || ' ' || format_type(a.atttypid, a.atttypmod) || case when a.attnotnull then ' not null' else '' end
      || coalesce(' default ' || pg_get_expr(d.adbin, d.adrelid), '')
      || case when a.attidentity::text <> '' then ' identity=' || a.attidentity::text else '' end
      || case when a.attgenerated::text <> '' then ' generated=' || a.attgenerated::text else '' end
      || case when a.attcollation <> 0 and a.attcollation <> t.typcollation
           then ' collate ' || (select collname from pg_collation where oid = a.attcollation) else '' end
      || case when a.attacl is not null then ' acl=' || ${acl('a.attacl')} else '' end
    from pg_attribute a
    join pg_class c on c.oid = a.attrelid
    join pg_namespace n on n.oid = c.relnamespace
    join pg_type t on t.oid = a.atttypid
    left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
    where n.nspname not in ${SYSTEM} and c.relkind in ('r', 'p', 'v', 'm', 'f', 'c')
      and a.attnum > 0 and not a.attisdropped`,
  constraint: `select n.nspname || '.' || coalesce(c.relname, t.typname) || ' ' || k.conname || ' '
      || pg_get_constraintdef(k.oid) || case when k.condeferrable then ' deferrable' else '' end
    from pg_constraint k
    join pg_namespace n on n.oid = k.connamespace
    left join pg_class c on c.oid = k.conrelid
    left join pg_type t on t.oid = k.contypid
    where n.nspname not in ${SYSTEM}`,
  index: `select schemaname || '.' || indexname || ': ' || indexdef from pg_indexes
    where schemaname not in ${SYSTEM}`,
  trigger: `select n.nspname || '.' || c.relname || ' ' || t.tgname || ' enabled=' || t.tgenabled::text || ': '
      || pg_get_triggerdef(t.oid)
    from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
    where not t.tgisinternal`,
  policy: `select schemaname || '.' || tablename || ' "' || policyname || '" ' || permissive || ' ' || cmd
      || ' roles=' || roles::text || ' using=' || coalesce(qual, '-') || ' check=' || coalesce(with_check, '-')
    from pg_policies`,
  function: `select n.nspname || '.' || p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')'
      || ' owner=' || pg_get_userbyid(p.proowner) || ' acl=' || ${acl('p.proacl')} || E'\\n'
      || pg_get_functiondef(p.oid)
    from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname not in ${SYSTEM} and p.prokind in ('f', 'p', 'w')`,
  aggregate: `select n.nspname || '.' || p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')'
    from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname not in ${SYSTEM} and p.prokind = 'a'`,
  default_acl: `select pg_get_userbyid(d.defaclrole) || ' schema=' || coalesce(n.nspname, '*')
      || ' type=' || d.defaclobjtype::text || ' acl=' || ${acl('d.defaclacl')}
    from pg_default_acl d left join pg_namespace n on n.oid = d.defaclnamespace`,
  comment: `select d.classoid::regclass || ' ' || d.objoid || ' ' || d.objsubid || ' ' || d.description
    from pg_description d
    join pg_class c on d.classoid = 'pg_class'::regclass and c.oid = d.objoid
    join pg_namespace n on n.oid = c.relnamespace where n.nspname not in ${SYSTEM}`,
  publication: `select pubname || ' ' || schemaname || '.' || tablename from pg_publication_tables`,
  event_trigger: `select evtname || ' ' || evtevent || ' ' || evtfoid::regproc from pg_event_trigger`,
  rows: `select 'placeholder'`,
};

async function main(): Promise<void> {
  const projectDir = process.argv[2] ?? process.cwd();
  const { cluster, dispose } = await startTestCluster();
  try {
    const admin = new pg.Client({ connectionString: cluster.url() });
    await admin.connect();
    await admin.query('create database dump');
    await admin.end();
    await prepareDatabase(cluster.url('dump'), projectDir, { seed: false });
    const client = new pg.Client({ connectionString: cluster.url('dump') });
    await client.connect();
    try {
      QUERIES.rows = await rowCountQuery(client);
      const hasCron = (await client.query(`select 1 from pg_namespace where nspname = 'cron'`)).rowCount;
      if (hasCron) QUERIES.cron = `select jobname || ' ' || schedule || ' ' || command from cron.job`;
      for (const [kind, query] of Object.entries(QUERIES)) {
        const result = await client.query<{ line: string }>(`select line from (${query}) q(line) order by 1`);
        for (const { line } of result.rows) process.stdout.write(`${kind} ${line}\n`);
      }
    } finally {
      await client.end();
    }
  } finally {
    await dispose();
  }
}

/** Row counts of every table outside the bootstrap's: a fold must leave no data behind either. */
async function rowCountQuery(client: pg.Client): Promise<string> {
  const tables = await client.query<{ name: string }>(
    `select format('%I.%I', n.nspname, c.relname) as name from pg_class c
     join pg_namespace n on n.oid = c.relnamespace
     where n.nspname in ('public', 'private') and c.relkind in ('r', 'p')`,
  );
  if (tables.rows.length === 0) return `select 'none'`;
  return tables.rows.map(({ name }) => `select '${name} ' || count(*) from ${name}`).join(' union all ');
}

await main();

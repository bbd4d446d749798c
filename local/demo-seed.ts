/**
 * supabase/seed.sql, written from local/demo-content.ts (docs/decisions/0019): the one way the demo
 * workspace is made, by the Supabase CLI (`supabase start`, `supabase db reset`) and by the stand-in on
 * a fresh database alike. `npm run gen` writes it; `npm run check` fails when it is stale.
 *
 * The content goes in as one JSON document, resolved here (board positions, the demo account first as the
 * owner), and one PL/pgSQL block writes it: the block is all or nothing and keeps the actor it sets for
 * every row, however the client sends the file.
 */
import { generateNKeysBetween } from 'fractional-indexing';
import type { TaskStatus } from '../supabase/functions/_shared/api-types.ts';
import {
  DEMO_ACCOUNT,
  DEMO_LABELS,
  DEMO_PEOPLE,
  DEMO_PROJECTS,
  DEMO_WORKSPACE,
  type DemoPersonKey,
  type DemoProject,
  type DemoTask,
} from './demo-content.ts';

export const SEED_PATH = 'supabase/seed.sql';

const JSON_QUOTE = '$demo$';

/** The text of supabase/seed.sql. */
export function demoSeedSql(): string {
  const document = formatJson(demoDocument());
  if (document.includes(JSON_QUOTE)) throw new Error(`the demo content may not contain ${JSON_QUOTE}`);
  return `${HEADER}do $seed$
declare
  demo constant jsonb := ${JSON_QUOTE}
${document}
${JSON_QUOTE};
${BODY}`;
}

function demoDocument() {
  const people = [
    { key: 'demo', email: DEMO_ACCOUNT.email, display_name: DEMO_ACCOUNT.displayName, role: 'owner' },
    ...Object.entries(DEMO_PEOPLE).map(([key, person]) => ({
      key,
      email: person.email,
      display_name: person.displayName,
      role: person.role,
    })),
  ];
  return {
    password: DEMO_ACCOUNT.password,
    workspace: DEMO_WORKSPACE,
    people,
    labels: Object.entries(DEMO_LABELS).map(([name, color]) => ({ name, color })),
    projects: DEMO_PROJECTS.map(projectDocument),
  };
}

function projectDocument(project: DemoProject) {
  const positions = columnPositions(project.tasks);
  return {
    key: project.key,
    name: project.name,
    description: project.description,
    tasks: project.tasks.map((task) => ({
      title: task.title,
      description: task.description ?? '',
      status: task.status,
      priority: task.priority,
      position: nextPosition(positions, task.status),
      assignee: task.assignee ?? null,
      labels: task.labels ?? [],
      due_in_days: task.dueInDays ?? null,
      by: task.by ?? ('demo' satisfies DemoPersonKey),
      comments: task.comments ?? [],
    })),
  };
}

/** For each status, fractional-index positions for its tasks, in the order they are listed. */
function columnPositions(tasks: readonly DemoTask[]): Map<TaskStatus, string[]> {
  const counts = new Map<TaskStatus, number>();
  for (const { status } of tasks) counts.set(status, (counts.get(status) ?? 0) + 1);
  return new Map([...counts].map(([status, count]) => [status, generateNKeysBetween(null, null, count)]));
}

function nextPosition(positions: Map<TaskStatus, string[]>, status: TaskStatus): string {
  const position = positions.get(status)?.shift();
  if (position === undefined) throw new Error(`no position left for a ${status} task`);
  return position;
}

/** Indented JSON, with each person, label and task on a line of its own, so a change reads as a diff. */
function formatJson(value: unknown, indent = ''): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const inner = indent + '  ';
    return `[\n${value.map((item) => inner + formatJson(item, inner)).join(',\n')}\n${indent}]`;
  }
  if (value !== null && typeof value === 'object' && 'tasks' in value) {
    const inner = indent + '  ';
    const fields = Object.entries(value).map(
      ([key, field]) => `${inner}${JSON.stringify(key)}: ${formatJson(field, inner)}`,
    );
    return `{\n${fields.join(',\n')}\n${indent}}`;
  }
  if (value !== null && typeof value === 'object' && indent === '') {
    const fields = Object.entries(value).map(
      ([key, field]) => `  ${JSON.stringify(key)}: ${formatJson(field, '  ')}`,
    );
    return `{\n${fields.join(',\n')}\n}`;
  }
  return JSON.stringify(value);
}

const HEADER = `-- The demo workspace: the demo account and three colleagues, labels, two projects of tasks in every
-- status, comments. Generated from local/demo-content.ts by \`npm run gen\` (local/demo-seed.ts): edit
-- those, not this file; \`npm run check\` fails when it is stale.
--
-- The Supabase CLI runs it after the migrations (\`supabase start\`, \`supabase db reset\`), the stand-in on
-- its first start (docs/decisions/0019). It runs as \`postgres\`, past RLS, through the same tables and
-- triggers as the API: task numbers, completion times and events come out as they would there. The people
-- are signed up as GoTrue signs people up (a bcrypt hash of cost 10, an e-mail identity, confirmed), all
-- with the demo password. It changes nothing when the demo account is in a workspace already or the
-- workspace's slug is taken, so running it again is harmless.
`;

const BODY = `  user_id_of jsonb := '{}';
  label_id_of jsonb := '{}';
  person jsonb;
  label jsonb;
  project jsonb;
  task jsonb;
  comment jsonb;
  person_id uuid;
  new_workspace uuid;
  new_project uuid;
  new_task uuid;
begin
  if exists (select from public.workspaces w where w.slug = demo #>> '{workspace,slug}')
    or exists (
      select from public.memberships m join auth.users u on u.id = m.user_id
      where lower(u.email) = demo #>> '{people,0,email}'
    )
  then
    return;
  end if;

  for person in select * from jsonb_array_elements(demo -> 'people') loop
    select u.id into person_id from auth.users u where lower(u.email) = person ->> 'email' for update;
    if person_id is null then
      person_id := gen_random_uuid();
      -- GoTrue reads its token columns as strings: they must be empty, not null.
      insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
        confirmation_token, recovery_token, email_change_token_new, email_change,
        raw_app_meta_data, raw_user_meta_data, created_at, updated_at, is_anonymous)
      values ('00000000-0000-0000-0000-000000000000', person_id, 'authenticated', 'authenticated',
        person ->> 'email', extensions.crypt(demo ->> 'password', extensions.gen_salt('bf', 10)), now(),
        '', '', '', '', '{"provider": "email", "providers": ["email"]}',
        jsonb_build_object('display_name', person ->> 'display_name'), now(), now(), false);
      insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at,
        created_at, updated_at)
      values (person_id::text, person_id,
        jsonb_build_object('display_name', person ->> 'display_name', 'sub', person_id,
          'email', person ->> 'email', 'email_verified', true, 'phone_verified', false),
        'email', now(), now(), now());
    end if;
    user_id_of := user_id_of || jsonb_build_object(person ->> 'key', person_id);
  end loop;

  -- Until the transaction ends, what follows is the demo account's doing (the events' actor)…
  perform set_config('request.jwt.claims',
    jsonb_build_object('sub', user_id_of ->> 'demo', 'role', 'authenticated')::text, true);
  insert into public.workspaces (slug, name, created_by)
  values (demo #>> '{workspace,slug}', demo #>> '{workspace,name}', (user_id_of ->> 'demo')::uuid)
  returning id into new_workspace;
  for person in select * from jsonb_array_elements(demo -> 'people') loop
    insert into public.memberships (workspace_id, user_id, role)
    values (new_workspace, (user_id_of ->> (person ->> 'key'))::uuid, (person ->> 'role')::public.workspace_role);
  end loop;
  for label in select * from jsonb_array_elements(demo -> 'labels') loop
    insert into public.labels (workspace_id, name, color, created_by)
    values (new_workspace, label ->> 'name', label ->> 'color', (user_id_of ->> 'demo')::uuid)
    returning label_id_of || jsonb_build_object(name, id) into label_id_of;
  end loop;

  for project in select * from jsonb_array_elements(demo -> 'projects') loop
    perform set_config('request.jwt.claims',
      jsonb_build_object('sub', user_id_of ->> 'demo', 'role', 'authenticated')::text, true);
    insert into public.projects (workspace_id, key, name, description, created_by)
    values (new_workspace, project ->> 'key', project ->> 'name', project ->> 'description',
      (user_id_of ->> 'demo')::uuid)
    returning id into new_project;
    -- …and each task its creator's, each comment its author's.
    for task in select * from jsonb_array_elements(project -> 'tasks') loop
      perform set_config('request.jwt.claims',
        jsonb_build_object('sub', user_id_of ->> (task ->> 'by'), 'role', 'authenticated')::text, true);
      insert into public.tasks (project_id, title, description, status, priority, assignee_id, label_ids,
        due_date, position, created_by)
      values (new_project, task ->> 'title', task ->> 'description', task ->> 'status',
        (task ->> 'priority')::public.task_priority, (user_id_of ->> (task ->> 'assignee'))::uuid,
        array(select (label_id_of ->> l.name)::uuid
          from jsonb_array_elements_text(task -> 'labels') with ordinality as l (name, n) order by l.n),
        current_date + (task ->> 'due_in_days')::integer, task ->> 'position',
        (user_id_of ->> (task ->> 'by'))::uuid)
      returning id into new_task;
      for comment in select * from jsonb_array_elements(task -> 'comments') loop
        perform set_config('request.jwt.claims',
          jsonb_build_object('sub', user_id_of ->> (comment ->> 'by'), 'role', 'authenticated')::text, true);
        insert into public.comments (task_id, author_id, body)
        values (new_task, (user_id_of ->> (comment ->> 'by'))::uuid, comment ->> 'body');
      end loop;
    end loop;
  end loop;
end
$seed$;
`;

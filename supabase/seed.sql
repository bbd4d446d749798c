-- The demo workspace: the demo account and three colleagues, labels, two projects of tasks in every
-- status, comments. Generated from local/demo-content.ts by `npm run gen` (local/demo-seed.ts): edit
-- those, not this file; `npm run check` fails when it is stale.
--
-- The Supabase CLI runs it after the migrations (`supabase start`, `supabase db reset`), the stand-in on
-- its first start (docs/decisions/0019). It runs as `postgres`, past RLS, through the same tables and
-- triggers as the API: task numbers, completion times and events come out as they would there. The people
-- are signed up as GoTrue signs people up (a bcrypt hash of cost 10, an e-mail identity, confirmed), all
-- with the demo password. It changes nothing when the demo account is in a workspace already or the
-- workspace's slug is taken, so running it again is harmless.
do $seed$
declare
  demo constant jsonb := $demo$
{
  "password": "tasklane-demo",
  "workspace": {"slug":"demo","name":"Demo Co"},
  "people": [
    {"key":"demo","email":"demo@tasklane.local","display_name":"Demo User","role":"owner"},
    {"key":"maya","email":"maya@tasklane.local","display_name":"Maya Patel","role":"admin"},
    {"key":"leo","email":"leo@tasklane.local","display_name":"Leo Martin","role":"member"},
    {"key":"sam","email":"sam@tasklane.local","display_name":"Sam Okafor","role":"member"}
  ],
  "labels": [
    {"name":"bug","color":"#d73a4a"},
    {"name":"feature","color":"#0e8a16"},
    {"name":"design","color":"#a855f7"},
    {"name":"content","color":"#0075ca"},
    {"name":"infra","color":"#6b7280"},
    {"name":"security","color":"#f59e0b"}
  ],
  "projects": [
    {
      "key": "WEB",
      "name": "Website relaunch",
      "description": "The new marketing site: design, content and a launch before the end of the quarter.",
      "tasks": [
        {"title":"Case study: Northwind logistics","description":"","status":"backlog","priority":"low","position":"a0","assignee":null,"labels":["content"],"due_in_days":null,"by":"demo","comments":[]},
        {"title":"Add a dark theme to the marketing pages","description":"","status":"backlog","priority":"none","position":"a1","assignee":null,"labels":["design","feature"],"due_in_days":null,"by":"demo","comments":[]},
        {"title":"Localise the site into German","description":"","status":"backlog","priority":"low","position":"a2","assignee":null,"labels":["content"],"due_in_days":null,"by":"maya","comments":[]},
        {"title":"Write the pricing page copy","description":"Three plans, a comparison table and an FAQ. Keep it under 400 words.","status":"todo","priority":"high","position":"a0","assignee":"leo","labels":["content"],"due_in_days":5,"by":"demo","comments":[]},
        {"title":"Set up redirects from the old URLs","description":"","status":"todo","priority":"medium","position":"a1","assignee":"sam","labels":["infra"],"due_in_days":12,"by":"demo","comments":[]},
        {"title":"Cookie banner that respects \"reject all\"","description":"","status":"todo","priority":"medium","position":"a2","assignee":null,"labels":["feature"],"due_in_days":9,"by":"demo","comments":[]},
        {"title":"Build the new navigation","description":"- Mega menu on desktop\n- Drawer on mobile\n- Keyboard accessible (see the design file)","status":"in_progress","priority":"high","position":"a0","assignee":"sam","labels":["feature","design"],"due_in_days":3,"by":"demo","comments":[{"by":"maya","body":"The drawer animation feels slow on older phones, can we cut it to 150 ms?"},{"by":"sam","body":"Done in the latest preview. Also fixed the focus trap."}]},
        {"title":"Hero illustration for the home page","description":"","status":"in_progress","priority":"medium","position":"a1","assignee":"maya","labels":["design"],"due_in_days":4,"by":"demo","comments":[]},
        {"title":"Contact form sends two e-mails","description":"Submitting the form once sends the confirmation twice. Reproduced in Firefox and Safari.","status":"in_review","priority":"urgent","position":"a0","assignee":"leo","labels":["bug"],"due_in_days":-1,"by":"sam","comments":[{"by":"leo","body":"The submit handler was bound twice. Fix is up for review."}]},
        {"title":"Blog index with pagination","description":"","status":"in_review","priority":"medium","position":"a1","assignee":"sam","labels":["feature"],"due_in_days":2,"by":"demo","comments":[]},
        {"title":"Pick the typefaces","description":"","status":"done","priority":"medium","position":"a0","assignee":"maya","labels":["design"],"due_in_days":null,"by":"demo","comments":[]},
        {"title":"Moodboard and colour palette","description":"","status":"done","priority":"low","position":"a1","assignee":"maya","labels":["design"],"due_in_days":null,"by":"demo","comments":[]},
        {"title":"Choose the static site generator","description":"","status":"done","priority":"high","position":"a2","assignee":"sam","labels":[],"due_in_days":null,"by":"demo","comments":[]},
        {"title":"Sitemap for the new site","description":"","status":"done","priority":"medium","position":"a3","assignee":"leo","labels":["content"],"due_in_days":null,"by":"demo","comments":[]},
        {"title":"Animated background video","description":"Dropped: too heavy for mobile.","status":"canceled","priority":"low","position":"a0","assignee":null,"labels":["design"],"due_in_days":null,"by":"demo","comments":[]},
        {"title":"Newsletter pop-up on every page","description":"","status":"canceled","priority":"none","position":"a1","assignee":null,"labels":["feature"],"due_in_days":null,"by":"maya","comments":[]},
        {"title":"Lighthouse score above 95 on mobile","description":"","status":"backlog","priority":"medium","position":"a3","assignee":null,"labels":["infra"],"due_in_days":null,"by":"demo","comments":[]},
        {"title":"Team page with photos","description":"","status":"todo","priority":"low","position":"a3","assignee":"leo","labels":["content"],"due_in_days":20,"by":"demo","comments":[]}
      ]
    },
    {
      "key": "OPS",
      "name": "Operations",
      "description": "Keeping the lights on: infrastructure, on-call, security and the tools we work with.",
      "tasks": [
        {"title":"Evaluate a status page service","description":"","status":"backlog","priority":"low","position":"a0","assignee":null,"labels":["infra"],"due_in_days":null,"by":"demo","comments":[]},
        {"title":"Move old backups to cold storage","description":"","status":"backlog","priority":"low","position":"a1","assignee":null,"labels":["infra"],"due_in_days":null,"by":"sam","comments":[]},
        {"title":"Write the on-call handbook","description":"","status":"backlog","priority":"medium","position":"a2","assignee":null,"labels":["content"],"due_in_days":null,"by":"demo","comments":[]},
        {"title":"Renew the TLS certificate for the API","description":"The current one expires soon. Switch to automatic renewal while we are at it.","status":"todo","priority":"urgent","position":"a0","assignee":"sam","labels":["security","infra"],"due_in_days":2,"by":"demo","comments":[{"by":"demo","body":"Please check the staging certificate too, it is on the same plan."}]},
        {"title":"Rotate the database passwords","description":"","status":"todo","priority":"high","position":"a1","assignee":"maya","labels":["security"],"due_in_days":7,"by":"demo","comments":[]},
        {"title":"Offboarding checklist","description":"","status":"todo","priority":"medium","position":"a2","assignee":null,"labels":["content"],"due_in_days":14,"by":"demo","comments":[]},
        {"title":"Upgrade PostgreSQL to 17","description":"Test the upgrade on a copy of production first; plan a 10-minute window.","status":"in_progress","priority":"high","position":"a0","assignee":"sam","labels":["infra"],"due_in_days":6,"by":"demo","comments":[{"by":"sam","body":"The copy upgraded cleanly in 4 minutes. Scheduling the real one."},{"by":"maya","body":"Thursday evening works for support."}]},
        {"title":"Set up alerts for disk usage","description":"","status":"in_progress","priority":"medium","position":"a1","assignee":"leo","labels":["infra"],"due_in_days":1,"by":"demo","comments":[]},
        {"title":"Enforce two-factor sign-in for admins","description":"","status":"in_review","priority":"high","position":"a0","assignee":"maya","labels":["security"],"due_in_days":-2,"by":"demo","comments":[]},
        {"title":"Nightly backup job fails on Sundays","description":"It runs into the maintenance window. Move it one hour earlier.","status":"in_review","priority":"urgent","position":"a1","assignee":"sam","labels":["bug","infra"],"due_in_days":0,"by":"leo","comments":[]},
        {"title":"Inventory of laptops and licences","description":"","status":"done","priority":"low","position":"a0","assignee":"leo","labels":[],"due_in_days":null,"by":"demo","comments":[]},
        {"title":"Move DNS to the new provider","description":"","status":"done","priority":"high","position":"a1","assignee":"sam","labels":["infra"],"due_in_days":null,"by":"demo","comments":[]},
        {"title":"Password manager for the whole team","description":"","status":"done","priority":"medium","position":"a2","assignee":"maya","labels":["security"],"due_in_days":null,"by":"demo","comments":[]},
        {"title":"Self-hosted chat server","description":"We stay with the hosted one.","status":"canceled","priority":"low","position":"a0","assignee":null,"labels":["infra"],"due_in_days":null,"by":"demo","comments":[]},
        {"title":"Quarterly access review","description":"","status":"todo","priority":"medium","position":"a3","assignee":"demo","labels":["security"],"due_in_days":30,"by":"demo","comments":[]},
        {"title":"Clean up unused cloud resources","description":"","status":"backlog","priority":"low","position":"a3","assignee":null,"labels":["infra"],"due_in_days":null,"by":"maya","comments":[]}
      ]
    }
  ]
}
$demo$;
  user_id_of jsonb := '{}';
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

-- Labels (SPEC §3, §5, §6): a workspace's tags for tasks, unique by name whatever the case. Members who
-- can edit create them; admins and owners rename, recolour and delete them.

create table public.labels (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  name text not null check (char_length(btrim(name)) between 1 and 32),
  color text not null check (color ~ '^#[0-9a-f]{6}$'),
  created_by uuid references auth.users (id) on delete set null,
  version integer not null default 1,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index labels_workspace_id_name_idx on public.labels (workspace_id, lower(name));
create index labels_workspace_id_created_at_idx on public.labels (workspace_id, created_at, id);
create index labels_created_by_idx on public.labels (created_by);
create trigger labels_bump_version before update on public.labels
  for each row execute function private.bump_version();
create trigger labels_hold_workspace_limit before insert on public.labels
  for each row execute function private.hold_workspace_limit();

alter table public.labels enable row level security;
create policy "Members can read their workspaces' labels" on public.labels
  for select to authenticated using ((select private.is_member(workspace_id)));
create policy "Editors can create labels" on public.labels
  for insert to authenticated
  with check (created_by = (select auth.uid()) and (select private.can_edit(workspace_id)));
create policy "Admins can edit labels" on public.labels
  for update to authenticated
  using ((select private.is_admin(workspace_id)))
  with check ((select private.is_admin(workspace_id)));
create policy "Admins can delete labels" on public.labels
  for delete to authenticated using ((select private.is_admin(workspace_id)));
create policy "Workspaces that require MFA admit aal2 only" on public.labels
  as restrictive for all to authenticated
  using (
    (select auth.jwt() ->> 'aal') = 'aal2' or workspace_id not in (select private.caller_mfa_workspace_ids())
  )
  with check (
    (select auth.jwt() ->> 'aal') = 'aal2' or workspace_id not in (select private.caller_mfa_workspace_ids())
  );

revoke all on table public.labels from anon, authenticated;
grant select, delete on public.labels to authenticated;
grant insert (workspace_id, name, color, created_by) on public.labels to authenticated;
grant update (name, color) on public.labels to authenticated;

-- A label as the API answers it (GET /v1/workspaces/{slug}/labels/{id}), for event data and for the
-- export, which selects it as the caller: a pure function of the row it is given.
create function private.label_json(label public.labels)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select jsonb_build_object(
    'object', 'label',
    'id', label.id,
    'workspace_id', label.workspace_id,
    'name', label.name,
    'color', label.color,
    'created_by', label.created_by,
    'version', label.version,
    'created_at', private.iso_timestamp(label.created_at),
    'updated_at', private.iso_timestamp(label.updated_at)
  );
$$;
revoke all on function private.label_json(public.labels) from public;
grant execute on function private.label_json(public.labels) to authenticated;

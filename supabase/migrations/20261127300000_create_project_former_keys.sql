-- Old task keys keep resolving after a project's key changes (issue 15), as GitHub keeps old repository
-- names redirecting: when `WEB` becomes `SITE`, `WEB-1` still finds the task that is now `SITE-1`. The
-- current key always wins: a key a project of the workspace takes is nobody's former key any more, so a
-- former key never names an earlier holder's tasks once another project has had it. Private (the Data API
-- does not reach it); members read it as themselves, the trigger below alone writes it.
create table private.project_former_keys (
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  key text not null,
  project_id uuid not null references public.projects (id) on delete cascade,
  replaced_at timestamptz not null default now(),
  primary key (workspace_id, key)
);
create index project_former_keys_project_id_idx on private.project_former_keys (project_id);

alter table private.project_former_keys enable row level security;
create policy "Members can read their workspaces' former project keys" on private.project_former_keys
  for select to authenticated using ((select private.is_member(workspace_id)));
create policy "Workspaces that require MFA admit aal2 only" on private.project_former_keys
  as restrictive for select to authenticated
  using (
    (select auth.jwt() ->> 'aal') = 'aal2' or workspace_id not in (select private.caller_mfa_workspace_ids())
  );
revoke all on private.project_former_keys from public, anon, authenticated;
grant select on private.project_former_keys to authenticated;

-- Security definer: admins change keys as themselves, and no API role may write the table.
create function private.remember_former_project_key()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'UPDATE' and new.key is distinct from old.key then
    insert into private.project_former_keys (workspace_id, key, project_id, replaced_at)
      values (old.workspace_id, old.key, old.id, now())
      on conflict (workspace_id, key)
        do update set project_id = excluded.project_id, replaced_at = excluded.replaced_at;
  end if;
  delete from private.project_former_keys f where f.workspace_id = new.workspace_id and f.key = new.key;
  return null;
end;
$$;
revoke all on function private.remember_former_project_key() from public;

create trigger projects_remember_former_key after insert or update of key on public.projects
  for each row execute function private.remember_former_project_key();

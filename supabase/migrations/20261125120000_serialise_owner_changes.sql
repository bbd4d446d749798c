-- A workspace keeps an owner even when owner changes race (issue 11, item 3). keep_an_owner counted the
-- other owners without a lock, so under READ COMMITTED two owners leaving at once (or one demoting the
-- other while the other removes them) each saw the other still there, and both went. Now every change
-- that takes away an owner waits for the others of its workspace, then counts with a fresh snapshot
-- (each statement of a plpgsql function takes its own under READ COMMITTED).
--
-- A transaction-scoped advisory lock per workspace rather than a lock on the workspace row: the row of
-- the membership is already locked when a BEFORE trigger runs, and deleting the workspace locks its row
-- before it cascades to the memberships, so locking the workspace row here would deadlock a member
-- leaving against the workspace's deletion. A workspace that is gone (being deleted by this very
-- transaction) needs no owner and takes no lock.
create or replace function private.keep_an_owner()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if old.role <> 'owner' or (tg_op = 'UPDATE' and new.role = 'owner')
     or not exists (select 1 from public.workspaces w where w.id = old.workspace_id)
  then
    return coalesce(new, old);
  end if;
  perform pg_advisory_xact_lock(hashtextextended('workspace_owners:' || old.workspace_id::text, 0));
  if not exists (
    select 1 from public.memberships m
    where m.workspace_id = old.workspace_id and m.role = 'owner' and m.user_id <> old.user_id
  ) then
    raise exception 'a workspace keeps at least one owner' using errcode = 'P0001', hint = 'last_owner';
  end if;
  return coalesce(new, old);
end;
$$;

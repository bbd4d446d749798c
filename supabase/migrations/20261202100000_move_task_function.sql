-- A task's move in one function (docs/decisions/0043): the refusals in the API's order, the column's lock,
-- the neighbours, the key, the rebalance and the version check in one place, in one statement the API sends
-- with its transaction's COMMIT. Before, the API computed the key in TypeScript or in SQL depending on the
-- path, and could take three transactions.

-- The longest key a move takes without rebalancing its column: after some 300 moves into one gap, far below
-- position's 200 characters, and long enough that rebalancing (which rewrites the column) is rare.
create function private.rebalance_above()
returns integer
language sql
immutable
set search_path = ''
as $$
  select 50;
$$;
revoke all on function private.rebalance_above() from public;

-- Gives the column's tasks but `moved` consecutive keys after the column's last key, in their order: all new
-- keys sort after every old one, so no write collides with a key not yet rewritten, and they are as short as
-- keys get. `moved` keeps its key (and its version, which the move's If-Match was checked against). Each
-- task rewritten is moved, with its event.
create function private.rebalance_column(project uuid, column_status text, moved uuid)
returns void
language plpgsql
set search_path = ''
as $$
declare
  ids uuid[];
  keys text[] := '{}';
  last_key text collate "C";
begin
  select coalesce(array_agg(c.id order by c.position) filter (where c.id <> moved), '{}'), max(c.position)
    into ids, last_key
    from public.tasks c where c.project_id = project and c.status = column_status;
  for i in 1 .. coalesce(array_length(ids, 1), 0) loop
    last_key := private.order_key_between(last_key, null);
    keys := keys || last_key::text;
  end loop;
  update public.tasks t set position = v.position
    from unnest(ids, keys) as v (id, position)
    where t.project_id = project and t.id = v.id;
end;
$$;
revoke all on function private.rebalance_column(uuid, text, uuid) from public;

-- Moves the caller's task `target` into the column `to_status`: right after `after_id`, right before
-- `before_id` (with both, after `after_id` and before whatever landed after it meanwhile), or at the column's
-- end; if it is at one of the `expected` versions (any, when null). Answers the task as it is now (unchanged
-- when it is there already). Raises P0001 with the API's code as the hint, in the order the API answers:
-- not_found; mfa_required (detail: the workspace's slug); forbidden (detail: the caller's role);
-- project_archived (detail: the project's key); validation_failed (detail: after_id or before_id, the
-- neighbour that is not another task of the column, or `order` when after_id does not come before
-- before_id); precondition_failed (detail: the task's version).
-- Security definer, like private.restore_task: it judges the rules the tasks' policies hold (a live
-- credential, membership, the MFA rule, a role that may edit) once, where each of its statements under RLS
-- would judge them again. The helpers above run as it does; nobody else may call them.
create function private.move_task(target uuid, to_status text, after_id uuid, before_id uuid, expected integer[])
returns public.tasks
language plpgsql
security definer
set search_path = ''
as $$
declare
  workspace_slug text;
  moved public.tasks;
  project public.projects;
  after_key text collate "C";
  before_key text collate "C";
  lower_key text collate "C";
  upper_key text collate "C";
  landing text collate "C";
begin
  -- A signed-out session or a revoked token moves nothing, as RLS lets it read nothing (20261129000000).
  if not private.caller_credential_is_live() then
    raise exception 'no such task' using errcode = 'P0001', hint = 'not_found';
  end if;
  select * into moved from public.tasks t where t.id = target;
  if moved.id is null or not private.is_member(moved.workspace_id) then
    raise exception 'no such task' using errcode = 'P0001', hint = 'not_found';
  end if;
  if (select auth.jwt() ->> 'aal') is distinct from 'aal2'
    and moved.workspace_id in (select private.caller_mfa_workspace_ids()) then
    select w.slug into workspace_slug from public.workspaces w where w.id = moved.workspace_id;
    raise exception 'the workspace requires MFA'
      using errcode = 'P0001', hint = 'mfa_required', detail = workspace_slug;
  end if;
  if not private.can_edit(moved.workspace_id) then
    raise exception 'may not move tasks'
      using errcode = 'P0001', hint = 'forbidden', detail = private.role_in(moved.workspace_id)::text;
  end if;
  select * into project from public.projects p where p.id = moved.project_id;
  if project.archived_at is not null then
    raise exception 'the project is archived' using errcode = 'P0001', hint = 'project_archived', detail = project.key;
  end if;

  -- Under the column's lock (the one creations and changes of status take), the task and its neighbours as
  -- they are now, not before the wait.
  perform pg_advisory_xact_lock(hashtextextended('task_column:' || moved.project_id::text || ':' || to_status, 0));
  select * into moved from public.tasks t where t.id = target for update;
  if moved.id is null then
    raise exception 'no such task' using errcode = 'P0001', hint = 'not_found';
  end if;
  if after_id is not null then
    select c.position into after_key from public.tasks c
      where c.project_id = moved.project_id and c.status = to_status and c.id = after_id and c.id <> target;
    if after_key is null then
      raise exception 'not a neighbour' using errcode = 'P0001', hint = 'validation_failed', detail = 'after_id';
    end if;
  end if;
  if before_id is not null then
    select c.position into before_key from public.tasks c
      where c.project_id = moved.project_id and c.status = to_status and c.id = before_id and c.id <> target;
    if before_key is null then
      raise exception 'not a neighbour' using errcode = 'P0001', hint = 'validation_failed', detail = 'before_id';
    end if;
  end if;
  if after_key >= before_key then
    raise exception 'neighbours out of order' using errcode = 'P0001', hint = 'validation_failed', detail = 'order';
  end if;
  if expected is not null and not moved.version = any(expected) then
    raise exception 'the task changed'
      using errcode = 'P0001', hint = 'precondition_failed', detail = moved.version::text;
  end if;

  -- The keys it lands between (null: an end), then its key; once more after a rebalance, which gives the
  -- column's other tasks new keys in their order (the neighbours' keys are read again).
  for pass in 1 .. 2 loop
    if after_key is not null then
      lower_key := after_key;
      select c.position into upper_key from public.tasks c
        where c.project_id = moved.project_id and c.status = to_status and c.position > after_key
          and c.id <> target
        order by c.position limit 1;
    else
      upper_key := before_key;
      select c.position into lower_key from public.tasks c
        where c.project_id = moved.project_id and c.status = to_status
          and (before_key is null or c.position < before_key) and c.id <> target
        order by c.position desc limit 1;
    end if;
    if pass = 1 and moved.status = to_status and (lower_key is null or lower_key < moved.position)
      and (upper_key is null or moved.position < upper_key) then
      return moved;
    end if;
    landing := private.order_key_between(lower_key, upper_key);
    exit when char_length(landing) <= private.rebalance_above() or pass = 2;
    perform private.rebalance_column(moved.project_id, to_status, target);
    select c.position into after_key from public.tasks c where c.id = after_id;
    select c.position into before_key from public.tasks c where c.id = before_id;
  end loop;
  update public.tasks t set status = to_status, position = landing where t.id = target returning * into moved;
  return moved;
end;
$$;
revoke all on function private.move_task(uuid, text, uuid, uuid, integer[]) from public;
grant execute on function private.move_task(uuid, text, uuid, uuid, integer[]) to authenticated;

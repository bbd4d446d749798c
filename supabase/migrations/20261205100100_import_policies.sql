-- Who may see and record imports: a workspace's owners and admins, on a live session or token, with aal2
-- where the workspace requires MFA (as for webhooks, 20261204100000_create_webhooks.sql).
set lock_timeout = '5s';

create policy "Admins read their workspaces' imports" on public.imports
  for select to authenticated using ((select private.is_admin(workspace_id)));
create policy "Admins record imports" on public.imports
  for insert to authenticated
  with check (created_by = (select auth.uid()) and (select private.is_admin(workspace_id)));
create policy "Workspaces that require MFA admit aal2 only" on public.imports
  as restrictive for all to authenticated
  using (
    (select auth.jwt() ->> 'aal') = 'aal2' or workspace_id not in (select private.caller_mfa_workspace_ids())
  )
  with check (
    (select auth.jwt() ->> 'aal') = 'aal2' or workspace_id not in (select private.caller_mfa_workspace_ids())
  );
create policy "Only live sessions and tokens" on public.imports
  as restrictive for all to authenticated
  using ((select private.caller_credential_is_live()))
  with check ((select private.caller_credential_is_live()));

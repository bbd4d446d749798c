-- Issue 23, item 4 (and item 1): the read policies of storage.objects admitted a member to every object
-- under their workspace's folder, and a person to every object under their own avatar folder. A deleted
-- task's files stayed readable (and signable) straight from Storage until the sweep removed them, and an
-- upload that `complete` never checked, or refused and removed before a second PUT put it back, could be
-- read and signed by its uploader: on hosted Storage, which serves an object with whatever type it was
-- uploaded under, a link to a page on Storage's origin (docs/decisions/0031). Now only what `complete`
-- checked is readable: an attachment's object while its attachment is ready, an avatar's while it is the
-- profile's avatar. The API reads everything else as the service (its check of the first bytes).

drop policy "Members can read their workspaces' attachment objects" on storage.objects;

-- Members may read (download, sign) the object of a ready attachment of their workspace, at the aal their
-- workspace requires. The attachment is read as the caller: its own policies admit only members of its
-- workspace (at that aal), so they decide both.
create policy "Members can read their workspaces' ready attachment objects" on storage.objects
  for select to authenticated
  using (
    bucket_id = 'attachments'
    and exists (
      select 1 from public.attachments a where a.object_path = storage.objects.name and a.status = 'ready'
    )
  );

drop policy "People can read their own avatar objects" on storage.objects;

-- A person may read their own current avatar; everyone else sees it only through the signed URL the API
-- hands out with a profile or member. Uploads under way are read by the API alone.
create policy "People can read their own current avatar" on storage.objects
  for select to authenticated
  using (
    bucket_id = 'avatars'
    and exists (
      select 1 from public.profiles p
      where p.user_id = (select auth.uid()) and p.avatar_path = storage.objects.name
    )
  );

-- Issue 23, item 6: the avatar completion checked one upload and committed another. The API checks the
-- upload under way (its size and first bytes), then calls the commit; a POST /v1/me/avatar in between
-- replaced the upload under way, and the commit made the new, unchecked object the avatar. The commit now
-- takes the path the API checked and refuses when the upload under way is no longer that one (hint
-- upload_incomplete, detail upload_replaced): the caller completes again, and the API then checks the new
-- upload.
drop function private.complete_avatar_upload();

-- Makes the caller's uploaded object their avatar, if it is still the upload the API checked
-- (`checked_path`), bumping the profile's version, and answers the avatar it replaced, whose object the API
-- then removes. Hints: not_found (no upload under way), upload_incomplete (nothing uploaded yet; with the
-- detail upload_replaced: another upload was started since the check), validation_failed (the size
-- differs).
create function private.complete_avatar_upload(checked_path text)
returns table (avatar_path text, previous_path text)
language plpgsql
security definer
set search_path = ''
as $$
declare
  me uuid := (select auth.uid());
  upload private.avatar_uploads;
  uploaded_size bigint;
  previous text;
begin
  select * into upload from private.avatar_uploads u
    where u.user_id = me and u.created_at >= now() - interval '1 hour'
    for update;
  if upload.user_id is null then
    raise exception 'no avatar upload under way' using errcode = 'P0001', hint = 'not_found';
  end if;
  if upload.object_path is distinct from checked_path then
    raise exception 'another avatar upload was started since the check' using errcode = 'P0001',
      hint = 'upload_incomplete', detail = 'upload_replaced';
  end if;
  uploaded_size := private.uploaded_object_size('avatars', upload.object_path);
  if uploaded_size is null then
    raise exception 'nothing uploaded yet' using errcode = 'P0001', hint = 'upload_incomplete';
  end if;
  if uploaded_size <> upload.size_bytes then
    raise exception 'the uploaded size differs' using errcode = 'P0001', hint = 'validation_failed';
  end if;
  select p.avatar_path into previous from public.profiles p where p.user_id = me for update;
  update public.profiles p set avatar_path = upload.object_path where p.user_id = me;
  delete from private.avatar_uploads u where u.user_id = me;
  return query select upload.object_path, previous;
end;
$$;
revoke all on function private.complete_avatar_upload(text) from public;
grant execute on function private.complete_avatar_upload(text) to authenticated;

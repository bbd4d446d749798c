-- The invitation page shows a signed-out invitee who invited them, to which workspace and in which role
-- before they sign up (issue 24, item 14). The API reads it as `anon`, which may call this one function
-- in `private` and nothing else (tests/db/grants.test.ts). Signed out, `auth.uid()` is null, so the
-- function answers no address, `for_caller` false and `caller_is_member` false: what anyone holding the
-- link may know, as it already answered someone signed in as another person.
grant usage on schema private to anon;
grant execute on function private.preview_invitation(bytea) to anon;

-- Invitations are made only by private.create_invitation (issue 11, item 5). A direct insert through the
-- Data API as an admin skipped every limit that function holds: the member limit, the hourly budget and
-- the per-address throttle. The API never inserts into the table itself, so the insert grant and its
-- policy go; the function runs as the table's owner and needs neither.
drop policy "Admins can invite up to their own role" on public.invitations;
revoke insert on public.invitations from authenticated;

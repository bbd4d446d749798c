-- An invitation past its expiry is still `pending` in the table and reads as expired (SPEC §4). Inviting
-- the same address again retires it for good as `expired`, which frees the one-pending-per-address index.
-- Its own migration: a new enum value cannot be used in the transaction that adds it.
alter type public.invitation_status add value if not exists 'expired';

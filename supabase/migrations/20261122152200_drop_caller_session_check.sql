-- The API now checks a session as the service in one statement (auth.sessions by id and user, in
-- _shared/auth/sessions.queries.ts) instead of opening a transaction as the caller to call this. Nothing
-- calls it any more, so no signed-in user keeps the right to.
drop function private.caller_session_is_active();

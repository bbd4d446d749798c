import { crc32 } from 'node:zlib';

/**
 * The join reply's echo of the requested postgres_changes bindings, each with an id derived from its
 * parameters as Realtime's phash2 is (docs/supabase-protocols.md#join-leave-and-close). The stand-in does not
 * stream table changes: Tasklane uses Broadcast from the database instead; the echo keeps a client that asks
 * for them subscribed.
 */
export function postgresChangesReply(bindings: Record<string, unknown>[]): Record<string, unknown>[] {
  return bindings.map((binding) => ({ ...binding, id: crc32(JSON.stringify(binding)) % 2 ** 27 }));
}

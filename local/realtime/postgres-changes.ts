import { crc32 } from 'node:zlib';
import { pushTo, type Channel } from './channel.ts';
import type { RealtimeContext } from './context.ts';

export const POSTGRES_CHANGES_REFUSAL =
  'postgres_changes is not served by the local stand-in: Tasklane uses database broadcasts ' +
  '(realtime.send to the workspace channel) instead';

/**
 * The join reply's echo of the requested postgres_changes bindings, each with an id derived from its
 * parameters as Realtime's phash2 is (docs/supabase-protocols.md#join-leave-and-close). Without the echo
 * realtime-js reports a binding mismatch instead of the reason below.
 */
export function postgresChangesReply(bindings: Record<string, unknown>[]): Record<string, unknown>[] {
  return bindings.map((binding) => ({ ...binding, id: crc32(JSON.stringify(binding)) % 2 ** 27 }));
}

/**
 * The stand-in streams no table changes (docs/decisions/0051-refuse-postgres-changes.md): a join that asks
 * for them is told so as hosted tells a join whose subscription cannot be set up, with a `postgres_changes`
 * system error after the ok reply, and is not retried.
 */
export function refusePostgresChanges(context: RealtimeContext, channel: Channel): void {
  context.log(`refused the postgres_changes of a join of ${channel.topic}`);
  pushTo(channel, 'system', {
    extension: 'postgres_changes',
    status: 'error',
    message: POSTGRES_CHANGES_REFUSAL,
    channel: channel.subTopic,
  });
}

import pg from 'pg';
import type { Database } from '../db.ts';
import type { RealtimeContext } from './context.ts';
import { fanOut } from './fan-out.ts';
import { deleteOldMessages, readBroadcast, type BroadcastRow } from './messages.queries.ts';

/** The channel the bootstrap's trigger notifies with each broadcast row's id, after its transaction commits. */
const NOTIFY_CHANNEL = 'realtime_messages';
const APPLICATION_NAME = 'tasklane-realtime-listener';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface Stoppable {
  stop(): Promise<void>;
}

/**
 * Broadcast from the database (docs/supabase-protocols.md#broadcast-from-the-database): where hosted Realtime
 * streams inserts on realtime.messages through logical replication, the stand-in LISTENs for the ids the
 * trigger NOTIFYs on commit, reads each row and delivers it on `realtime:<topic>` with `meta: {id}`, in
 * commit order. A dropped listening connection is opened again. While the project's message rate is over
 * its limit, broadcasts are dropped, as hosted drops them.
 */
export function deliverDatabaseBroadcasts(
  context: RealtimeContext,
  database: Database,
  databaseUrl: string,
): Stoppable {
  let client: pg.Client | null = null;
  let stopped = false;
  let delivering = Promise.resolve();
  let retry: NodeJS.Timeout | undefined;

  const reconnectLater = (reason: string) => {
    if (stopped || retry) return;
    context.log(`the database listener stopped (${reason}); listening again shortly`);
    client = null;
    retry = setTimeout(() => {
      retry = undefined;
      void listen();
    }, context.settings.listenerReconnectMs);
  };
  const listen = async () => {
    const listener = new pg.Client({ connectionString: databaseUrl, application_name: APPLICATION_NAME });
    listener.on('error', (error) => reconnectLater(error.message));
    listener.on('end', () => reconnectLater('connection ended'));
    listener.on('notification', ({ channel, payload }) => {
      if (channel !== NOTIFY_CHANNEL || !payload || !UUID.test(payload)) return;
      delivering = delivering.then(() => deliver(context, database, payload));
    });
    try {
      await listener.connect();
      await listener.query(`listen ${NOTIFY_CHANNEL}`);
      if (stopped) await listener.end();
      else client = listener;
    } catch (error) {
      void listener.end().catch(() => undefined);
      reconnectLater((error as Error).message);
    }
  };
  const cleanup = setInterval(
    () => void removeOldMessages(context, database),
    context.settings.cleanupIntervalMs,
  );
  cleanup.unref();
  void listen();
  void removeOldMessages(context, database);
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(retry);
      clearInterval(cleanup);
      await client?.end().catch(() => undefined);
      await delivering;
    },
  };
}

async function deliver(context: RealtimeContext, database: Database, id: string): Promise<void> {
  try {
    const row = await readBroadcast(database.statements, id);
    if (!row) return;
    // Over the project's message rate, hosted's replication connection drops what it streams.
    if (context.eventsRate.triggered) return;
    context.eventsRate.add();
    const target = { isPrivate: row.private === true, subTopic: row.topic };
    fanOut(context, target, asBroadcast(row), { fromDatabase: true });
  } catch (error) {
    context.log(`could not deliver broadcast ${id}: ${(error as Error).message}`);
  }
}

function asBroadcast(row: BroadcastRow) {
  return {
    event: row.event ?? '',
    payload: row.binary_payload ?? row.payload ?? {},
    meta: { id: row.id },
    // Hosted sends database broadcasts as user broadcasts: kind-4 frames to vsn 2.0.0 sockets.
    binaryFrame: true,
  };
}

async function removeOldMessages(context: RealtimeContext, database: Database): Promise<void> {
  try {
    await deleteOldMessages(database.statements, context.settings.messageRetentionMs);
  } catch (error) {
    context.log(`could not delete old realtime messages: ${(error as Error).message}`);
  }
}

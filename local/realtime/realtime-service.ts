import type { Database } from '../db.ts';
import type { ServiceHandler } from '../gateway/gateway.ts';
import type { StandInKeys } from '../keys.ts';
import { addCorsHeaders, answerPreflight } from '../auth/cors.ts';
import { databaseAuthorizer } from './authorization.ts';
import type { RealtimeContext } from './context.ts';
import { deliverDatabaseBroadcasts } from './database-broadcasts.ts';
import { EventsRate } from './events-rate.ts';
import { websocketEndpoint, type UpgradeHandler } from './handshake.ts';
import { answerHttpBroadcast } from './http-broadcast.ts';
import { PresenceStore } from './presence-store.ts';
import type { RealtimeSettings } from './settings.ts';
import { tokenVerifier } from './tokens.ts';
import { TopicHub } from './topic-hub.ts';

export interface RealtimeServiceOptions {
  /** The service's pool: authorization checks and reading broadcast rows, as the database owner. */
  database: Database;
  /** For the connection that LISTENs. */
  databaseUrl: string;
  keys: StandInKeys;
  settings: RealtimeSettings;
  log: (line: string) => void;
}

export interface RealtimeService {
  /** HTTP under /realtime/v1: the broadcast endpoints. */
  http: ServiceHandler;
  /** WebSocket upgrades under /realtime/v1: `/websocket`. */
  upgrade: UpgradeHandler;
  stop(): Promise<void>;
}

/**
 * A Supabase-compatible Realtime service for the gateway's /realtime/v1 prefix
 * (docs/supabase-protocols.md#realtime).
 */
export function createRealtimeService(options: RealtimeServiceOptions): RealtimeService {
  const context: RealtimeContext = {
    settings: options.settings,
    keys: options.keys,
    verifyToken: tokenVerifier(options.keys),
    authorizer: databaseAuthorizer(options.database, options.log),
    hub: new TopicHub(),
    presence: new PresenceStore(),
    eventsRate: new EventsRate(options.settings.eventsRate),
    log: options.log,
  };
  context.eventsRate.start();
  const websocket = websocketEndpoint(context);
  const listener = deliverDatabaseBroadcasts(context, options.database, options.databaseUrl);
  return {
    http: async (req, res, path) => {
      addCorsHeaders(res);
      if (req.method === 'OPTIONS') return answerPreflight(req, res);
      await answerHttpBroadcast(context, req, res, new URL(path, 'http://realtime.local'));
    },
    upgrade: websocket.upgrade,
    stop: async () => {
      websocket.close();
      await listener.stop();
      context.eventsRate.stop();
    },
  };
}

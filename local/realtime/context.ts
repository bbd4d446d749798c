import type { StandInKeys } from '../keys.ts';
import type { Authorizer } from './authorization.ts';
import type { EventsRate } from './events-rate.ts';
import type { PresenceStore } from './presence-store.ts';
import type { RealtimeSettings } from './settings.ts';
import type { TokenVerifier } from './tokens.ts';
import type { TopicHub } from './topic-hub.ts';

/** What every part of the realtime service may use. */
export interface RealtimeContext {
  settings: RealtimeSettings;
  keys: StandInKeys;
  verifyToken: TokenVerifier;
  authorizer: Authorizer;
  hub: TopicHub;
  presence: PresenceStore;
  /** The project's message rate: every delivery and every message sent counts. */
  eventsRate: EventsRate;
  /** Never given a token or an API key. */
  log: (line: string) => void;
}

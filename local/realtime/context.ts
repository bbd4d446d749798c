import type { StandInKeys } from '../keys.ts';
import type { Authorizer } from './authorization.ts';
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
  /** Never given a token or an API key. */
  log: (line: string) => void;
}

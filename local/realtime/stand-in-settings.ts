import type { StandInConfig } from '../config.ts';
import { HOSTED_REALTIME_SETTINGS, type RealtimeSettings } from './settings.ts';

/** Hosted's settings, with the stand-in's backoffs, timers and limits as configured. */
export function realtimeSettings(config: StandInConfig): RealtimeSettings {
  return { ...HOSTED_REALTIME_SETTINGS, ...config.realtime };
}

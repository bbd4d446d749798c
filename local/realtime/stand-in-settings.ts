import type { StandInConfig } from '../config.ts';
import { originsOf } from './origins.ts';
import { HOSTED_REALTIME_SETTINGS, type RealtimeSettings } from './settings.ts';

/** Hosted's settings, with the stand-in's backoffs and the web app's origins (those Auth redirects to). */
export function realtimeSettings(config: StandInConfig): RealtimeSettings {
  return {
    ...HOSTED_REALTIME_SETTINGS,
    ...config.realtime,
    allowedOrigins: originsOf([
      config.auth.siteUrl,
      ...config.auth.additionalRedirectUrls,
      `http://localhost:${config.ports.web}`,
      `http://127.0.0.1:${config.ports.web}`,
    ]),
  };
}

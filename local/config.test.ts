import { describe, expect, test } from 'vitest';
import {
  PENDING_UPLOAD_LIFETIME_SECONDS,
  SIGNED_UPLOAD_URL_LIFETIME_SECONDS,
} from '../supabase/functions/_shared/limits.ts';
import { readConfig } from './config.ts';
import { HOSTED_REALTIME_SETTINGS } from './realtime/settings.ts';
import { realtimeSettings } from './realtime/stand-in-settings.ts';

describe('stand-in settings', () => {
  test("signed upload URLs live hosted Storage's two hours by default, and never longer", () => {
    expect(readConfig({}).storage.uploadUrlExpiresInSeconds).toBe(SIGNED_UPLOAD_URL_LIFETIME_SECONDS);
    expect(
      readConfig({ TASKLANE_STORAGE_UPLOAD_URL_EXPIRES_IN: '60' }).storage.uploadUrlExpiresInSeconds,
    ).toBe(60);
    // An upload URL that outlived its pending upload would put objects in Storage that nothing counts.
    expect(() =>
      readConfig({ TASKLANE_STORAGE_UPLOAD_URL_EXPIRES_IN: String(SIGNED_UPLOAD_URL_LIFETIME_SECONDS + 1) }),
    ).toThrow('TASKLANE_STORAGE_UPLOAD_URL_EXPIRES_IN');
    expect(SIGNED_UPLOAD_URL_LIFETIME_SECONDS).toBeLessThan(PENDING_UPLOAD_LIFETIME_SECONDS);
  });

  test("Realtime's client presence limit is hosted's (5 in 30 s) unless set", () => {
    expect(realtimeSettings(readConfig({})).clientPresenceLimit).toEqual(
      HOSTED_REALTIME_SETTINGS.clientPresenceLimit,
    );
    const set = readConfig({
      TASKLANE_REALTIME_MAX_CLIENT_PRESENCE_EVENTS_PER_WINDOW: '2',
      TASKLANE_REALTIME_CLIENT_PRESENCE_WINDOW_MS: '1000',
    });
    expect(realtimeSettings(set).clientPresenceLimit).toEqual({ maxCalls: 2, windowMs: 1_000 });
    expect(() => readConfig({ TASKLANE_REALTIME_MAX_CLIENT_PRESENCE_EVENTS_PER_WINDOW: '0' })).toThrow(
      'TASKLANE_REALTIME_MAX_CLIENT_PRESENCE_EVENTS_PER_WINDOW',
    );
  });

  test('a join is ready for database broadcasts at once unless a replication-ready delay is set', () => {
    expect(realtimeSettings(readConfig({})).replicationReadyDelayMs).toBe(0);
    const set = readConfig({ TASKLANE_REALTIME_REPLICATION_READY_DELAY_MS: '1500' });
    expect(realtimeSettings(set).replicationReadyDelayMs).toBe(1_500);
    expect(() => readConfig({ TASKLANE_REALTIME_REPLICATION_READY_DELAY_MS: '-1' })).toThrow(
      'TASKLANE_REALTIME_REPLICATION_READY_DELAY_MS',
    );
  });

  test("the project's message rate is hosted's (100 a second, counted every 5 s) unless set", () => {
    expect(realtimeSettings(readConfig({})).eventsRate).toEqual({ maxEventsPerSecond: 100, tickMs: 5_000 });
    const set = readConfig({
      TASKLANE_REALTIME_MAX_EVENTS_PER_SECOND: '5',
      TASKLANE_REALTIME_EVENTS_RATE_TICK_MS: '200',
    });
    expect(realtimeSettings(set).eventsRate).toEqual({ maxEventsPerSecond: 5, tickMs: 200 });
    expect(() => readConfig({ TASKLANE_REALTIME_MAX_EVENTS_PER_SECOND: '0' })).toThrow(
      'TASKLANE_REALTIME_MAX_EVENTS_PER_SECOND',
    );
  });
});

import { describe, expect, test } from 'vitest';
import {
  PENDING_UPLOAD_LIFETIME_SECONDS,
  SIGNED_UPLOAD_URL_LIFETIME_SECONDS,
} from '../supabase/functions/_shared/limits.ts';
import { readConfig } from './config.ts';

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
});

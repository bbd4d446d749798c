import type { components } from '@api-spec/schema.d.ts';
import { useEffect, useRef } from 'react';
import { useUpdateMe } from './api/update-me.ts';
import { browserTimeZone } from './time-zones.ts';

type Me = components['schemas']['Me'];

/**
 * A person who never chose a time zone gets the browser's, once, when their account is read: their
 * due-date reminders and 08:00 digest then follow their day (docs/notifications.md). A choice they made (UTC included,
 * once chosen) is never overwritten; only a session sets it, never an API token.
 */
export function useDefaultTimeZone(me: Me | undefined): void {
  const update = useUpdateMe();
  const tried = useRef(false);
  useEffect(() => {
    if (tried.current || !me || me.time_zone !== null || me.credential.type !== 'session') return;
    const zone = browserTimeZone();
    if (!zone) return;
    tried.current = true;
    update.mutate({ time_zone: zone });
  }, [me, update]);
}

import type { components } from '@api-spec/schema.d.ts';
import { useId } from 'react';
import { toast } from 'sonner';
import { describeError } from '../../../lib/api/api-error.ts';
import { useUpdateMe } from '../api/update-me.ts';
import { timeZoneChoices } from '../time-zones.ts';
import styles from './time-zone-field.module.css';

type Me = components['schemas']['Me'];

/** The person's time zone, saved on change: due dates and the 08:00 digest follow it. */
export function TimeZoneField({ me }: { me: Me }) {
  const id = useId();
  const hintId = useId();
  const update = useUpdateMe();
  const choose = (zone: string) =>
    update.mutate(
      { time_zone: zone === '' ? null : zone },
      { onError: (error) => toast.error(`Your time zone was not changed: ${describeError(error)}`) },
    );
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={styles.label}>
        Time zone
      </label>
      <select
        id={id}
        className={styles.select}
        value={me.time_zone ?? ''}
        aria-describedby={hintId}
        disabled={update.isPending}
        onChange={(event) => choose(event.target.value)}
      >
        <option value="">UTC</option>
        {timeZoneChoices(me.time_zone).map((zone) => (
          <option key={zone} value={zone}>
            {zone.replaceAll('_', ' ')}
          </option>
        ))}
      </select>
      <p id={hintId} className="muted">
        Due-date reminders and the daily digest (08:00) follow it.
      </p>
    </div>
  );
}

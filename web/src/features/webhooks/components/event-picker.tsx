import { useId } from 'react';
import { coversEvent, EVENT_GROUPS, EVERY_EVENT, toggleEvent } from '../webhook-events.ts';
import styles from './webhooks.module.css';

interface EventPickerProps {
  value: readonly string[];
  error: string | undefined;
  onChange: (events: string[]) => void;
}

/** The event types a webhook listens to: everything, every type of a resource, or single types. */
export function EventPicker({ value, error, onChange }: EventPickerProps) {
  const errorId = useId();
  const everything = value.includes(EVERY_EVENT);
  return (
    <fieldset
      className={styles.events}
      aria-invalid={error ? true : undefined}
      aria-describedby={error ? errorId : undefined}
    >
      <legend className={styles.legend}>Events</legend>
      <Check
        label="Everything (*)"
        checked={everything}
        onChange={(on) => onChange(toggleEvent(value, EVERY_EVENT, on))}
      />
      <div className={styles.groups}>
        {EVENT_GROUPS.map((group) => {
          const wholeGroup = everything || value.includes(group.all);
          return (
            <fieldset key={group.resource} className={styles.group} disabled={everything}>
              <legend className={styles.groupName}>{group.resource}</legend>
              <Check
                label={`All of ${group.resource} (${group.all})`}
                checked={wholeGroup}
                onChange={(on) => onChange(toggleEvent(value, group.all, on))}
              />
              {group.types.map((type) => (
                <Check
                  key={type}
                  label={type}
                  mono
                  checked={coversEvent(value, type)}
                  disabled={wholeGroup}
                  onChange={(on) => onChange(toggleEvent(value, type, on))}
                />
              ))}
            </fieldset>
          );
        })}
      </div>
      {error && (
        <p id={errorId} className={styles.fieldError}>
          {error}
        </p>
      )}
    </fieldset>
  );
}

interface CheckProps {
  label: string;
  checked: boolean;
  disabled?: boolean;
  mono?: boolean;
  onChange: (checked: boolean) => void;
}

function Check({ label, checked, disabled, mono, onChange }: CheckProps) {
  return (
    <label className={mono ? `${styles.check} ${styles.mono}` : styles.check}>
      <input
        type="checkbox"
        checked={checked}
        disabled={disabled}
        onChange={(event) => onChange(event.target.checked)}
      />
      {label}
    </label>
  );
}

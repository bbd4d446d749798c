import { useId } from 'react';
import { LabelSwatches } from '../../../lib/labels/label-swatches.tsx';
import styles from './labels.module.css';

interface LabelColorFieldProps {
  value: string;
  onChange: (color: string) => void;
  error?: string | undefined;
}

/** A label's colour: one of the palette's, or any `#rrggbb` typed in the hex field. */
export function LabelColorField({ value, onChange, error }: LabelColorFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <fieldset className={styles.colorField}>
      <legend className={styles.legend}>Color</legend>
      <div className={styles.colorRow}>
        <LabelSwatches name={`${id}-swatch`} value={value} onChange={onChange} />
        <div className={styles.hex}>
          <span className={styles.preview} style={{ background: value }} aria-hidden="true" />
          <input
            className={styles.hexInput}
            aria-label="Hex color"
            value={value}
            maxLength={7}
            spellCheck={false}
            autoComplete="off"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
            onChange={(event) => onChange(event.target.value)}
          />
        </div>
      </div>
      {error && (
        <p id={errorId} className={styles.fieldError}>
          {error}
        </p>
      )}
    </fieldset>
  );
}

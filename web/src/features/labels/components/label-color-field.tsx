import { useId } from 'react';
import { LABEL_COLORS } from '../../../lib/labels/label-colors.ts';
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
        <div className={styles.swatches}>
          {LABEL_COLORS.map((swatch) => (
            <label key={swatch.value} className={styles.swatch} style={{ background: swatch.value }}>
              <input
                type="radio"
                name={`${id}-swatch`}
                value={swatch.value}
                checked={value.toLowerCase() === swatch.value}
                onChange={() => onChange(swatch.value)}
                aria-label={swatch.name}
              />
            </label>
          ))}
        </div>
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

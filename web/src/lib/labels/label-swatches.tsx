import { LABEL_COLORS } from './label-colors.ts';
import styles from './label-swatches.module.css';

interface LabelSwatchesProps {
  /** The radio group's name, unique on the page. */
  name: string;
  /** The colour chosen, `#rrggbb`. */
  value: string;
  onChange: (color: string) => void;
}

/** The label palette as a group of round radio buttons, each named by its colour. */
export function LabelSwatches({ name, value, onChange }: LabelSwatchesProps) {
  return (
    <div className={styles.swatches}>
      {LABEL_COLORS.map((swatch) => (
        <label key={swatch.value} className={styles.swatch} style={{ background: swatch.value }}>
          <input
            type="radio"
            name={name}
            value={swatch.value}
            checked={value.toLowerCase() === swatch.value}
            onChange={() => onChange(swatch.value)}
            aria-label={swatch.name}
          />
        </label>
      ))}
    </div>
  );
}

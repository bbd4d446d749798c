import type { ImportSource } from '../import-types.ts';
import { SOURCE_HINTS, SOURCE_LABELS } from '../import-wording.ts';
import styles from './imports.module.css';

interface SourcePickerProps {
  source: ImportSource;
  onChange: (source: ImportSource) => void;
}

const SOURCES = Object.keys(SOURCE_LABELS) as ImportSource[];

/** The three kinds of file an import reads, as radio cards. */
export function SourcePicker({ source, onChange }: SourcePickerProps) {
  return (
    <fieldset className={styles.sources}>
      <legend className={styles.legend}>Import from</legend>
      {SOURCES.map((each) => (
        <label key={each} className={styles.source}>
          <input
            type="radio"
            name="import-source"
            value={each}
            checked={source === each}
            onChange={() => onChange(each)}
          />
          <span className={styles.sourceText}>
            <span className={styles.sourceName}>{SOURCE_LABELS[each]}</span>
            <span className={styles.sourceHint}>{SOURCE_HINTS[each]}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}

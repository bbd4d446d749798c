import { classNames } from '../../../components/ui/class-names.ts';
import type { CsvField, ImportPreview } from '../import-types.ts';
import { CSV_FIELD_LABELS, CSV_FIELDS } from '../import-wording.ts';
import styles from './imports.module.css';

interface CsvColumnMappingProps {
  columns: ImportPreview['csv_columns'];
  disabled: boolean;
  onChange: (header: string, field: CsvField) => void;
}

/** Each header of a CSV and the task field it is read as. */
export function CsvColumnMapping({ columns, disabled, onChange }: CsvColumnMappingProps) {
  if (columns.length === 0) return null;
  return (
    <div className={classNames(styles.scroll, styles.mapping)}>
      <table className={styles.table}>
        <caption className={styles.caption}>CSV headers → fields</caption>
        <thead>
          <tr>
            <th scope="col">Header</th>
            <th scope="col">Read as</th>
          </tr>
        </thead>
        <tbody>
          {columns.map((column) => (
            <tr key={column.header}>
              <th scope="row" className={styles.name}>
                {column.header}
              </th>
              <td>
                <select
                  className={styles.select}
                  aria-label={`Field for ${column.header}`}
                  value={column.field}
                  disabled={disabled}
                  onChange={(event) => onChange(column.header, event.target.value as CsvField)}
                >
                  {CSV_FIELDS.map((field) => (
                    <option key={field} value={field}>
                      {CSV_FIELD_LABELS[field]}
                    </option>
                  ))}
                </select>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

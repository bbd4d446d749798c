import { useId, useRef, useState } from 'react';
import { Button } from './button.tsx';
import { classNames } from './class-names.ts';
import fieldStyles from './text-field.module.css';
import styles from './copy-field.module.css';

interface CopyFieldProps {
  label: string;
  value: string;
  testId?: string;
}

type CopyState = 'idle' | 'copied' | 'failed';

/** A read-only value with a button that puts it on the clipboard (a secret to type into another app). */
export function CopyField({ label, value, testId }: CopyFieldProps) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [state, setState] = useState<CopyState>('idle');

  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setState('copied');
    } catch {
      input.current?.select();
      setState('failed');
    }
  }

  return (
    <div className={fieldStyles.field}>
      <label className={fieldStyles.label} htmlFor={id}>
        {label}
      </label>
      <div className={styles.row}>
        <input
          ref={input}
          id={id}
          className={classNames(fieldStyles.input, styles.value)}
          value={value}
          readOnly
          spellCheck={false}
          data-testid={testId}
          onFocus={(event) => event.currentTarget.select()}
        />
        <Button onClick={() => void copy()}>{state === 'copied' ? 'Copied' : 'Copy'}</Button>
      </div>
      {state === 'failed' && (
        <p className={fieldStyles.hint}>Selected: press Ctrl+C (⌘C on a Mac) to copy.</p>
      )}
    </div>
  );
}

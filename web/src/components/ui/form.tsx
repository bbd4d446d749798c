import type { FormEvent, ReactNode } from 'react';
import { Alert } from './alert.tsx';
import { classNames } from './class-names.ts';
import styles from './form.module.css';

interface FormProps {
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  /** An error about the form as a whole, shown above its fields. */
  error?: string | undefined;
  className?: string;
  children: ReactNode;
}

/** A form checked by its own rules (the API's), not the browser's, so every message reads the same. */
export function Form({ onSubmit, error, className, children }: FormProps) {
  return (
    <form className={classNames(styles.form, className)} noValidate onSubmit={onSubmit}>
      {error && <Alert>{error}</Alert>}
      {children}
    </form>
  );
}

/** The row of a form's buttons. */
export function FormActions({ children }: { children: ReactNode }) {
  return <div className={styles.actions}>{children}</div>;
}

import type { FormEvent, ReactNode } from 'react';
import { Alert } from './alert.tsx';

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
    <form className={className ? `form ${className}` : 'form'} noValidate onSubmit={onSubmit}>
      {error && <Alert>{error}</Alert>}
      {children}
    </form>
  );
}

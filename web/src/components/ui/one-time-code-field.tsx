import { TextField } from './text-field.tsx';

interface OneTimeCodeFieldProps {
  label?: string;
  hint?: string;
  error?: string | undefined;
  autoFocus?: boolean;
}

/** The input for a code from an authenticator app: numeric keypad, and autofill from the OS where it offers. */
export function OneTimeCodeField({ label = '6-digit code', hint, error, autoFocus }: OneTimeCodeFieldProps) {
  return (
    <TextField
      label={label}
      name="code"
      autoComplete="one-time-code"
      inputMode="numeric"
      pattern="[0-9]*"
      spellCheck={false}
      required
      autoFocus={autoFocus}
      hint={hint}
      error={error}
    />
  );
}

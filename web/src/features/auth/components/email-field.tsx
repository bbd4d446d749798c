import { TextField } from '../../../components/ui/text-field.tsx';

interface EmailFieldProps {
  error?: string | undefined;
  /** Filled in already: the address an invitation was sent to. */
  defaultValue?: string | undefined;
}

/** The account's e-mail address (field `email`), as browsers and password managers fill it. */
export function EmailField({ error, defaultValue }: EmailFieldProps) {
  return (
    <TextField
      label="E-mail"
      name="email"
      type="email"
      autoComplete="email"
      required
      error={error}
      defaultValue={defaultValue}
    />
  );
}

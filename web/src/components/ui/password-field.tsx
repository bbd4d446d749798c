import { TextField } from './text-field.tsx';

interface PasswordFieldProps {
  label?: string;
  name?: string;
  /** `current-password` lets password managers fill the saved one; `new-password` lets them offer one. */
  autoComplete: 'current-password' | 'new-password';
  hint?: string;
  error?: string | undefined;
}

export function PasswordField({ label = 'Password', name = 'password', ...input }: PasswordFieldProps) {
  return <TextField label={label} name={name} type="password" required {...input} />;
}

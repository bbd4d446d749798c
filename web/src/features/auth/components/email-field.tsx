import { TextField } from '../../../components/ui/text-field.tsx';

/** The account's e-mail address (field `email`), as browsers and password managers fill it. */
export function EmailField({ error }: { error?: string | undefined }) {
  return <TextField label="E-mail" name="email" type="email" autoComplete="email" required error={error} />;
}

import { CopyField } from '../../../components/ui/copy-field.tsx';
import { FormActions } from '../../../components/ui/form.tsx';
import { Button } from '../../../components/ui/button.tsx';
import styles from './webhooks.module.css';

interface SecretOnceProps {
  secret: string;
  /** One sentence after the warning: what the secret is for now. */
  note: string;
  onDone: () => void;
}

/** A signing secret, this once, with a button that copies it. */
export function SecretOnce({ secret, note, onDone }: SecretOnceProps) {
  return (
    <div className={styles.secret}>
      <p role="status">
        <strong>Copy the signing secret now: you won’t see it again.</strong> {note}
      </p>
      <CopyField label="Signing secret" value={secret} testId="webhook-secret" />
      <FormActions>
        <Button variant="primary" onClick={onDone}>
          Done, I have copied it
        </Button>
      </FormActions>
    </div>
  );
}

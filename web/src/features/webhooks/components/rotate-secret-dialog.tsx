import type { components } from '@api-spec/schema.d.ts';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { SecretOnce } from './secret-once.tsx';

type NewWebhook = components['schemas']['NewWebhook'];

interface RotatedSecretDialogProps {
  /** The webhook as rotated, with its new secret; `undefined` closes the dialog. */
  rotated: NewWebhook | undefined;
  onClose: () => void;
}

/** A webhook's new signing secret, this once, after a rotation. */
export function RotatedSecretDialog({ rotated, onClose }: RotatedSecretDialogProps) {
  return (
    <Dialog
      open={rotated !== undefined}
      onOpenChange={(open) => !open && onClose()}
      title="New signing secret"
      description={rotated ? `For ${rotated.url}` : undefined}
    >
      {rotated && (
        <SecretOnce
          secret={rotated.secret}
          note="For the next 24 hours deliveries carry a signature with the old secret too, so switch your receiver over within that time."
          onDone={onClose}
        />
      )}
    </Dialog>
  );
}

import type { components } from '@api-spec/schema.d.ts';
import { useState } from 'react';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { useCreateWebhook } from '../api/create-webhook.ts';
import { SecretOnce } from './secret-once.tsx';
import { WebhookForm } from './webhook-form.tsx';

type NewWebhook = components['schemas']['NewWebhook'];

interface CreateWebhookDialogProps {
  slug: string;
  open: boolean;
  onClose: () => void;
}

/** Adds a webhook, then shows its signing secret this once. */
export function CreateWebhookDialog({ slug, open, onClose }: CreateWebhookDialogProps) {
  const create = useCreateWebhook(slug);
  const [created, setCreated] = useState<NewWebhook>();

  function close() {
    create.reset();
    setCreated(undefined);
    onClose();
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(isOpen) => !isOpen && close()}
      title={created ? 'Webhook added' : 'Add a webhook'}
      description={
        created
          ? `Events are now sent to ${created.url}.`
          : 'Tasklane POSTs each event of the types you pick to this URL, signed with a secret.'
      }
    >
      {created ? (
        <SecretOnce
          secret={created.secret}
          note="Your receiver verifies each delivery's webhook-signature header with it."
          onDone={close}
        />
      ) : (
        <WebhookForm
          pending={create.isPending}
          error={create.error}
          onEdit={() => create.reset()}
          onSubmit={(body) => create.mutate(body, { onSuccess: setCreated })}
        />
      )}
    </Dialog>
  );
}

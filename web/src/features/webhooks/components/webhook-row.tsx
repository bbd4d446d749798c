import type { components } from '@api-spec/schema.d.ts';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button.tsx';
import { classNames } from '../../../components/ui/class-names.ts';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { describeError } from '../../../lib/api/api-error.ts';
import { useDeleteWebhook } from '../api/delete-webhook.ts';
import { useRotateWebhookSecret } from '../api/rotate-webhook-secret.ts';
import { useTestWebhook } from '../api/test-webhook.ts';
import { useUpdateWebhook } from '../api/update-webhook.ts';
import { webhookStatus } from './webhook-status.ts';
import styles from './webhooks.module.css';

type Webhook = components['schemas']['Webhook'];
type NewWebhook = components['schemas']['NewWebhook'];

interface WebhookRowProps {
  slug: string;
  webhook: Webhook;
  /** Whether its delivery log is the one shown below the list. */
  selected: boolean;
  onSelect: () => void;
  onRotated: (rotated: NewWebhook) => void;
}

/** One webhook: where it points, what it listens to, its state, and what can be done with it. */
export function WebhookRow({ slug, webhook, selected, onSelect, onRotated }: WebhookRowProps) {
  const update = useUpdateWebhook(slug);
  const remove = useDeleteWebhook(slug);
  const rotate = useRotateWebhookSecret(slug);
  const test = useTestWebhook(slug);
  const status = webhookStatus(webhook);
  const failed = (what: string) => (error: unknown) => toast.error(`${what}: ${describeError(error)}`);

  return (
    <li className={classNames(styles.webhook, selected && styles.selected)} data-testid="webhook-row">
      <div className={styles.webhookHead}>
        <code className={styles.url}>{webhook.url}</code>
        <span className={classNames(styles.state, styles[status.tone])}>
          <span className={styles.badgeDot} aria-hidden="true" />
          {status.label}
        </span>
      </div>
      <ul className={styles.chips} aria-label="Events">
        {webhook.events.map((event) => (
          <li key={event} className={styles.chip}>
            {event}
          </li>
        ))}
      </ul>
      <div className={styles.rowActions}>
        <Button onClick={onSelect} aria-pressed={selected} aria-label={`Deliveries to ${webhook.url}`}>
          Deliveries
        </Button>
        <Button
          disabled={update.isPending}
          aria-label={`${webhook.active ? 'Turn off' : 'Turn on'} ${webhook.url}`}
          onClick={() =>
            update.mutate(
              { webhook, patch: { active: !webhook.active } },
              {
                onSuccess: (after) =>
                  toast.success(after.active ? 'Webhook turned on.' : 'Webhook turned off.'),
                onError: failed('Could not switch the webhook'),
              },
            )
          }
        >
          {webhook.active ? 'Turn off' : 'Turn on'}
        </Button>
        <Button
          disabled={test.isPending}
          aria-label={`Send test to ${webhook.url}`}
          onClick={() =>
            test.mutate(webhook.id, {
              onSuccess: () => {
                toast.success('Test ping queued: follow it in the delivery log.');
                onSelect();
              },
              onError: failed('Could not send the test'),
            })
          }
        >
          Send test
        </Button>
        <ConfirmDialog
          trigger={
            <Button disabled={rotate.isPending} aria-label={`Rotate secret of ${webhook.url}`}>
              Rotate secret
            </Button>
          }
          title="Rotate the signing secret?"
          description="A new secret is made and shown once. The old one keeps signing deliveries for 24 hours, beside the new one."
          confirm="Rotate secret"
          onConfirm={() =>
            rotate.mutate(webhook.id, {
              onSuccess: onRotated,
              onError: failed('Could not rotate the secret'),
            })
          }
        />
        <ConfirmDialog
          trigger={
            <Button disabled={remove.isPending} aria-label={`Delete ${webhook.url}`}>
              Delete
            </Button>
          }
          title="Delete this webhook?"
          description={`Nothing more is sent to ${webhook.url}, and its delivery log is deleted. This cannot be undone.`}
          confirm="Delete webhook"
          onConfirm={() =>
            remove.mutate(webhook, {
              onSuccess: () => toast.success('Webhook deleted.'),
              onError: failed('Could not delete the webhook'),
            })
          }
        />
      </div>
    </li>
  );
}

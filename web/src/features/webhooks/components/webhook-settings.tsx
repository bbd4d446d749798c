import type { components } from '@api-spec/schema.d.ts';
import { useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { LoadError } from '../../../components/ui/load-error.tsx';
import { LoadingLine } from '../../../components/ui/loading-line.tsx';
import { useWebhooks } from '../api/list-webhooks.ts';
import { CreateWebhookDialog } from './create-webhook-dialog.tsx';
import { DeliveryLog } from './delivery-log.tsx';
import { RotatedSecretDialog } from './rotate-secret-dialog.tsx';
import { WebhookRow } from './webhook-row.tsx';
import styles from './webhooks.module.css';

type NewWebhook = components['schemas']['NewWebhook'];
type Webhook = components['schemas']['Webhook'];

/** The Webhooks tab for owners and admins: the workspace's webhooks and the delivery log of one. */
export function WebhookSettings({ slug }: { slug: string }) {
  const webhooks = useWebhooks(slug, { enabled: true });
  const [adding, setAdding] = useState(false);
  const [rotated, setRotated] = useState<NewWebhook>();
  const [selectedId, setSelectedId] = useState<string>();

  return (
    <>
      {webhooks.isPending ? (
        <LoadingLine>Loading webhooks…</LoadingLine>
      ) : webhooks.isError ? (
        <LoadError
          what="The webhooks"
          error={webhooks.error}
          onRetry={() => void webhooks.refetch()}
          retrying={webhooks.isFetching}
        />
      ) : webhooks.data.length === 0 ? (
        <EmptyState onAdd={() => setAdding(true)} />
      ) : (
        <WebhookList
          slug={slug}
          webhooks={webhooks.data}
          selectedId={selectedId}
          onSelect={setSelectedId}
          onRotated={setRotated}
          onAdd={() => setAdding(true)}
        />
      )}
      {/* Here whatever the list holds, so the dialog keeps the new secret as the list changes under it. */}
      <CreateWebhookDialog slug={slug} open={adding} onClose={() => setAdding(false)} />
      <RotatedSecretDialog rotated={rotated} onClose={() => setRotated(undefined)} />
    </>
  );
}

function EmptyState({ onAdd }: { onAdd: () => void }) {
  return (
    <div className={styles.empty}>
      <p>
        <strong>No webhooks yet.</strong> A webhook calls your server whenever something happens here: a task
        is created or moved, a comment is posted, a member joins. Each call is a signed POST, retried for
        three days until your server answers 2xx.
      </p>
      <Button variant="primary" onClick={onAdd}>
        Add webhook
      </Button>
    </div>
  );
}

interface WebhookListProps {
  slug: string;
  webhooks: Webhook[];
  selectedId: string | undefined;
  onSelect: (id: string) => void;
  onRotated: (rotated: NewWebhook) => void;
  onAdd: () => void;
}

function WebhookList({ slug, webhooks, selectedId, onSelect, onRotated, onAdd }: WebhookListProps) {
  // The first webhook's log is shown until another is picked.
  const selected = webhooks.find((webhook) => webhook.id === selectedId) ?? webhooks[0];
  return (
    <>
      <div className={styles.listHead}>
        <p className="muted">Each event of the types a webhook listens to is POSTed to its URL, signed.</p>
        <Button variant="primary" onClick={onAdd}>
          Add webhook
        </Button>
      </div>
      <ul className={styles.webhooks} aria-label="Webhooks">
        {webhooks.map((webhook) => (
          <WebhookRow
            key={webhook.id}
            slug={slug}
            webhook={webhook}
            selected={webhook.id === selected?.id}
            onSelect={() => onSelect(webhook.id)}
            onRotated={onRotated}
          />
        ))}
      </ul>
      {selected && <DeliveryLog key={selected.id} slug={slug} webhook={selected} />}
    </>
  );
}

import type { components } from '@api-spec/schema.d.ts';
import { toast } from 'sonner';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { LoadError } from '../../../components/ui/load-error.tsx';
import { LoadingLine } from '../../../components/ui/loading-line.tsx';
import { describeError } from '../../../lib/api/api-error.ts';
import { formatTimestamp } from '../../../lib/dates/relative-time.ts';
import { useWebhookDelivery } from '../api/get-webhook-delivery.ts';
import { useRedeliverWebhookDelivery } from '../api/redeliver-webhook-delivery.ts';
import { DeliveryStatusBadge } from './delivery-status.tsx';
import { prettyJson } from './pretty-json.ts';
import styles from './webhooks.module.css';

type WebhookDeliveryDetail = components['schemas']['WebhookDeliveryDetail'];

interface DeliveryDetailDialogProps {
  slug: string;
  webhookId: string;
  /** The delivery to show; `undefined` closes the dialog. */
  deliveryId: string | undefined;
  onClose: () => void;
}

/** A delivery's request as sent and the response it got, with Redeliver. */
export function DeliveryDetailDialog({ slug, webhookId, deliveryId, onClose }: DeliveryDetailDialogProps) {
  return (
    <Dialog
      open={deliveryId !== undefined}
      onOpenChange={(open) => !open && onClose()}
      title="Delivery"
      variant="sheet"
    >
      {deliveryId && <DeliveryDetail slug={slug} webhookId={webhookId} deliveryId={deliveryId} />}
    </Dialog>
  );
}

function DeliveryDetail({
  slug,
  webhookId,
  deliveryId,
}: {
  slug: string;
  webhookId: string;
  deliveryId: string;
}) {
  const delivery = useWebhookDelivery({ slug, webhookId, deliveryId });
  const redeliver = useRedeliverWebhookDelivery(slug, webhookId);
  if (delivery.isPending) return <LoadingLine>Loading the delivery…</LoadingLine>;
  if (delivery.isError) {
    return (
      <LoadError
        what="The delivery"
        error={delivery.error}
        onRetry={() => void delivery.refetch()}
        retrying={delivery.isFetching}
      />
    );
  }
  const detail = delivery.data;
  return (
    <div className={styles.detail}>
      <div className={styles.detailHead}>
        <code className={styles.deliveryType}>{detail.event_type}</code>
        <DeliveryStatusBadge status={detail.status} />
        <Button
          variant="primary"
          disabled={redeliver.isPending}
          onClick={() =>
            redeliver.mutate(deliveryId, { onSuccess: () => toast.success('Delivery queued again.') })
          }
        >
          {redeliver.isPending ? 'Redelivering…' : 'Redeliver'}
        </Button>
      </div>
      {redeliver.isError && <Alert>{describeError(redeliver.error)}</Alert>}
      <Facts detail={detail} />
      <h3 className={styles.detailTitle}>Response</h3>
      {detail.response ? (
        <>
          <p>HTTP {detail.response.status}</p>
          <CodeBlock label="Response body">{prettyJson(detail.response.body) || '(empty body)'}</CodeBlock>
        </>
      ) : (
        <p className="muted">{detail.error ?? 'No answer yet.'}</p>
      )}
      <h3 className={styles.detailTitle}>Request headers</h3>
      <CodeBlock label="Request headers">
        {Object.entries(detail.request.headers)
          .map(([name, value]) => `${name}: ${value}`)
          .join('\n')}
      </CodeBlock>
      <h3 className={styles.detailTitle}>Request body</h3>
      <CodeBlock label="Request body">{prettyJson(detail.request.body)}</CodeBlock>
    </div>
  );
}

function Facts({ detail }: { detail: WebhookDeliveryDetail }) {
  return (
    <dl className={styles.facts}>
      <dt>Id</dt>
      <dd>
        <code>{detail.id}</code>
      </dd>
      <dt>Tries</dt>
      <dd>{detail.attempts}</dd>
      <dt>Latency</dt>
      <dd>{detail.latency_ms === null ? '—' : `${detail.latency_ms} ms`}</dd>
      <dt>Created</dt>
      <dd>{formatTimestamp(detail.created_at)}</dd>
      <dt>Last try</dt>
      <dd>{detail.last_attempt_at ? formatTimestamp(detail.last_attempt_at) : '—'}</dd>
      <dt>Next try</dt>
      <dd>{detail.next_attempt_at ? formatTimestamp(detail.next_attempt_at) : '—'}</dd>
    </dl>
  );
}

/** A block of text that may scroll, so it takes focus for the keyboard to scroll it. */
function CodeBlock({ label, children }: { label: string; children: string }) {
  return (
    <pre className={styles.code} tabIndex={0} role="region" aria-label={label}>
      {children}
    </pre>
  );
}

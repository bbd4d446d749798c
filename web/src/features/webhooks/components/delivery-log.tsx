import type { components } from '@api-spec/schema.d.ts';
import { useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { LoadError } from '../../../components/ui/load-error.tsx';
import { LoadingLine } from '../../../components/ui/loading-line.tsx';
import { deliveriesOf, useWebhookDeliveries } from '../api/list-webhook-deliveries.ts';
import { DeliveryDetailDialog } from './delivery-detail-dialog.tsx';
import { DeliveryRow } from './delivery-row.tsx';
import styles from './webhooks.module.css';

type Webhook = components['schemas']['Webhook'];

/** One webhook's deliveries, newest first, read again every few seconds; one opens in a dialog. */
export function DeliveryLog({ slug, webhook }: { slug: string; webhook: Webhook }) {
  const deliveries = useWebhookDeliveries(slug, webhook.id);
  const [openId, setOpenId] = useState<string>();
  const rows = deliveriesOf(deliveries.data);

  return (
    <section className={styles.log} aria-labelledby="webhook-deliveries-title">
      <h3 id="webhook-deliveries-title" className={styles.logTitle}>
        Deliveries <span className={styles.logUrl}>to {webhook.url}</span>
      </h3>
      {deliveries.isPending ? (
        <LoadingLine>Loading deliveries…</LoadingLine>
      ) : deliveries.isError ? (
        <LoadError
          what="The deliveries"
          error={deliveries.error}
          onRetry={() => void deliveries.refetch()}
          retrying={deliveries.isFetching}
        />
      ) : rows.length === 0 ? (
        <p className="muted">Nothing sent yet. Deliveries show here as events happen, or press Send test.</p>
      ) : (
        <ul className={styles.deliveries} aria-label="Deliveries">
          {rows.map((delivery) => (
            <DeliveryRow key={delivery.id} delivery={delivery} onOpen={() => setOpenId(delivery.id)} />
          ))}
        </ul>
      )}
      {deliveries.hasNextPage && (
        <Button disabled={deliveries.isFetchingNextPage} onClick={() => void deliveries.fetchNextPage()}>
          {deliveries.isFetchingNextPage ? 'Loading…' : 'Load more'}
        </Button>
      )}
      <DeliveryDetailDialog
        slug={slug}
        webhookId={webhook.id}
        deliveryId={openId}
        onClose={() => setOpenId(undefined)}
      />
    </section>
  );
}

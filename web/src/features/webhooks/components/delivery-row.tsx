import type { components } from '@api-spec/schema.d.ts';
import { formatTimestamp, relativeTime } from '../../../lib/dates/relative-time.ts';
import { DeliveryStatusBadge } from './delivery-status.tsx';
import styles from './webhooks.module.css';

type WebhookDelivery = components['schemas']['WebhookDelivery'];

/** One delivery in the log: a button that opens its request and response. */
export function DeliveryRow({ delivery, onOpen }: { delivery: WebhookDelivery; onOpen: () => void }) {
  return (
    <li>
      <button type="button" className={styles.delivery} onClick={onOpen} data-testid="webhook-delivery">
        <span className={styles.deliveryType}>{delivery.event_type}</span>
        <DeliveryStatusBadge status={delivery.status} />
        <span className={styles.deliveryFacts}>
          <span>{delivery.response_status === null ? 'No answer' : `HTTP ${delivery.response_status}`}</span>
          <span>{delivery.latency_ms === null ? '—' : `${delivery.latency_ms} ms`}</span>
          <span>
            {delivery.attempts} {delivery.attempts === 1 ? 'try' : 'tries'}
          </span>
          <time dateTime={delivery.created_at} title={formatTimestamp(delivery.created_at)}>
            {relativeTime(delivery.created_at)}
          </time>
          {delivery.next_attempt_at && (
            <span>
              next{' '}
              <time dateTime={delivery.next_attempt_at}>{formatTimestamp(delivery.next_attempt_at)}</time>
            </span>
          )}
        </span>
      </button>
    </li>
  );
}

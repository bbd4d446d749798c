import type { components } from '@api-spec/schema.d.ts';
import { classNames } from '../../../components/ui/class-names.ts';
import styles from './webhooks.module.css';

type DeliveryStatus = components['schemas']['WebhookDeliveryStatus'];

const LABELS: Record<DeliveryStatus, string> = {
  pending: 'Pending',
  retrying: 'Retrying',
  succeeded: 'Succeeded',
  failed: 'Failed',
};

/** A delivery's status as a coloured pill: succeeded green, retrying amber, failed red, pending grey. */
export function DeliveryStatusBadge({ status }: { status: DeliveryStatus }) {
  return (
    <span className={classNames(styles.badge, styles[status])} data-status={status}>
      <span className={styles.badgeDot} aria-hidden="true" />
      {LABELS[status]}
    </span>
  );
}

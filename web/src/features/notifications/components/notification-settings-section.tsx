import { useEffect, useId, useRef } from 'react';
import { toast } from 'sonner';
import { LoadError } from '../../../components/ui/load-error.tsx';
import { LoadingLine } from '../../../components/ui/loading-line.tsx';
import { PanelSection } from '../../../components/ui/panel-section.tsx';
import { describeError } from '../../../lib/api/api-error.ts';
import {
  useNotificationSettings,
  useUpdateNotificationSetting,
  type NotificationDelivery,
  type NotificationType,
} from '../api/notification-settings.ts';
import {
  DELIVERIES,
  DELIVERY_LABELS,
  NOTIFICATION_TYPE_LABELS,
  NOTIFICATION_TYPES,
} from '../notification-types.ts';
import styles from './notification-settings.module.css';

/**
 * The account page's "Notifications": for each type, the inbox only, a mail at once, the daily digest, or
 * nothing. A change is saved at once (`/account#notifications` scrolls here).
 */
export function NotificationSettingsSection() {
  const settings = useNotificationSettings();
  const update = useUpdateNotificationSetting();
  useScrollHereOnce(settings.isSuccess);

  const change = (type: NotificationType, delivery: NotificationDelivery) =>
    update.mutate(
      { type, delivery },
      {
        onError: (error) =>
          toast.error(`${NOTIFICATION_TYPE_LABELS[type]} was not changed: ${describeError(error)}`),
      },
    );

  return (
    <PanelSection title="Notifications" id="notifications">
      <p className="muted">
        How you hear of each kind of notification. A daily digest arrives at 08:00 in the time zone of your
        profile.
      </p>
      {settings.isPending ? (
        <LoadingLine>Reading your notification settings…</LoadingLine>
      ) : settings.isError ? (
        <LoadError
          what="Your notification settings"
          error={settings.error}
          onRetry={() => void settings.refetch()}
          retrying={settings.isFetching}
        />
      ) : (
        <ul className={styles.rows}>
          {NOTIFICATION_TYPES.map((type) => (
            <DeliveryRow
              key={type}
              type={type}
              delivery={settings.data.deliveries[type]}
              onChange={(delivery) => change(type, delivery)}
            />
          ))}
        </ul>
      )}
    </PanelSection>
  );
}

interface DeliveryRowProps {
  type: NotificationType;
  delivery: NotificationDelivery;
  onChange: (delivery: NotificationDelivery) => void;
}

function DeliveryRow({ type, delivery, onChange }: DeliveryRowProps) {
  const id = useId();
  return (
    <li className={styles.row}>
      <label htmlFor={id} className={styles.label}>
        {NOTIFICATION_TYPE_LABELS[type]}
      </label>
      <select
        id={id}
        className={styles.select}
        value={delivery}
        onChange={(event) => onChange(event.target.value as NotificationDelivery)}
      >
        {DELIVERIES.map((each) => (
          <option key={each} value={each}>
            {DELIVERY_LABELS[each]}
          </option>
        ))}
      </select>
    </li>
  );
}

/**
 * `/account#notifications` scrolls here once the settings are shown: the sections above load too, and
 * the browser's own jump happens before they have their height.
 */
function useScrollHereOnce(ready: boolean) {
  const done = useRef(false);
  useEffect(() => {
    if (!ready || done.current) return;
    done.current = true;
    if (window.location.hash === '#notifications') {
      document.getElementById('notifications')?.scrollIntoView({ block: 'start' });
    }
  }, [ready]);
}

import { getRouteApi } from '@tanstack/react-router';
import { UnsubscribePage } from '../../features/notifications/components/unsubscribe/unsubscribe-page.tsx';

const route = getRouteApi('/unsubscribe/$token');

/** `/unsubscribe/:token`: a notification mail's unsubscribe link, signed in or not. */
export function UnsubscribeScreen() {
  const { token } = route.useParams();
  return (
    <>
      <title>Unsubscribe · Tasklane</title>
      <UnsubscribePage token={token} />
    </>
  );
}

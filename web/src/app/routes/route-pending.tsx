import { Spinner } from '../../components/ui/spinner.tsx';

/** Every route's pending state, shown when its code or data takes more than a moment. */
export function RoutePending() {
  return (
    <div className="route-pending" role="status">
      <Spinner />
      <span>Loading…</span>
    </div>
  );
}

import { useRouter, type ErrorComponentProps } from '@tanstack/react-router';
import { Button } from '../../components/ui/button.tsx';
import { ApiError, describeError } from '../../lib/api/api-error.ts';

/** Every route's error boundary: says what went wrong and offers to load the page again. */
export function RouteError({ error }: ErrorComponentProps) {
  const router = useRouter();
  const requestId = error instanceof ApiError ? error.requestId : null;

  return (
    <section className="panel" role="alert" aria-labelledby="route-error-title">
      <h1 id="route-error-title" className="panel__title">
        Something went wrong
      </h1>
      <p className="muted">{describeError(error)}</p>
      {requestId && <p className="fine-print">Request id: {requestId}</p>}
      <Button variant="primary" onClick={() => void router.invalidate()}>
        Try again
      </Button>
    </section>
  );
}

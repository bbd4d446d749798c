import type { ReactNode } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { StatusDot } from '../../../components/ui/status-dot.tsx';
import { describeError } from '../../../lib/api/api-error.ts';
import { useHealth } from '../api/get-health.ts';

/** Whether the API and its database answer, with a way to ask again when they do not. */
export function ApiHealthStatus() {
  const { data, error, isPending, isFetching, refetch } = useHealth();

  if (isPending) {
    return <HealthLine indicator={<Spinner />}>Checking the API…</HealthLine>;
  }
  if (error) {
    const retry = (
      <Button onClick={() => void refetch()} disabled={isFetching}>
        {isFetching ? 'Retrying…' : 'Retry'}
      </Button>
    );
    return (
      <HealthLine indicator={<StatusDot tone="error" />} action={retry}>
        API unavailable: {describeError(error)}
      </HealthLine>
    );
  }
  return <HealthLine indicator={<StatusDot tone="ok" />}>API healthy · database {data.database}</HealthLine>;
}

interface HealthLineProps {
  indicator: ReactNode;
  action?: ReactNode;
  children: ReactNode;
}

// One element for every state, so screen readers hear each change in the same live region.
function HealthLine({ indicator, action, children }: HealthLineProps) {
  return (
    <div className="health" data-testid="api-health">
      {indicator}
      <p className="health__text" role="status">
        {children}
      </p>
      {action}
    </div>
  );
}

import { describeError } from '../../lib/api/api-error.ts';
import { Alert } from './alert.tsx';
import { Button } from './button.tsx';

interface LoadErrorProps {
  /** What could not be loaded, as the start of a sentence: "Your projects". */
  what: string;
  error: unknown;
  onRetry: () => void;
  retrying: boolean;
}

/** A part of a screen whose data could not be read: the API's reason and a retry. */
export function LoadError({ what, error, onRetry, retrying }: LoadErrorProps) {
  return (
    <Alert>
      <p>
        {what} could not be loaded: {describeError(error)}
      </p>
      <Button onClick={onRetry} disabled={retrying}>
        {retrying ? 'Retrying…' : 'Retry'}
      </Button>
    </Alert>
  );
}

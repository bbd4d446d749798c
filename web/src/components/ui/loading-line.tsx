import type { ReactNode } from 'react';
import { Spinner } from './spinner.tsx';

/** A spinner and what it is waiting for, announced to screen readers. */
export function LoadingLine({ children }: { children: ReactNode }) {
  return (
    <p className="loading-line" role="status">
      <Spinner />
      {children}
    </p>
  );
}

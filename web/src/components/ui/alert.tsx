import type { ReactNode } from 'react';

/** An error about a whole form or screen, announced when it appears. */
export function Alert({ children }: { children: ReactNode }) {
  return (
    <div className="alert" role="alert">
      {children}
    </div>
  );
}

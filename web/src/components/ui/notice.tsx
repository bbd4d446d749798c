import type { ReactNode } from 'react';

interface NoticeProps {
  children: ReactNode;
  onDismiss?: () => void;
}

/** A confirmation that something worked, read out politely. */
export function Notice({ children, onDismiss }: NoticeProps) {
  return (
    <div className="notice" role="status">
      <p className="notice__text">{children}</p>
      {onDismiss && (
        <button type="button" className="notice__dismiss" onClick={onDismiss} aria-label="Dismiss">
          ×
        </button>
      )}
    </div>
  );
}

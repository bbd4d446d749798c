import type { ReactNode } from 'react';
import { Button } from './button.tsx';

interface SubmitButtonProps {
  /** While the form is being sent: the button is disabled and says so. */
  pending: boolean;
  pendingLabel: string;
  children: ReactNode;
  variant?: 'primary' | 'danger';
}

/** A form's submit button, which cannot send the form twice. */
export function SubmitButton({ pending, pendingLabel, children, variant = 'primary' }: SubmitButtonProps) {
  return (
    <Button type="submit" variant={variant} disabled={pending}>
      {pending ? pendingLabel : children}
    </Button>
  );
}

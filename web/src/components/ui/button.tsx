import type { ButtonHTMLAttributes } from 'react';

type ButtonVariant = 'primary' | 'secondary' | 'danger';

/** The button look, for links that act as the main call to action. */
export function buttonClassName(variant: ButtonVariant = 'secondary'): string {
  return `button button--${variant}`;
}

interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
}

export function Button({ variant, className, type = 'button', ...props }: ButtonProps) {
  const classes = className ? `${buttonClassName(variant)} ${className}` : buttonClassName(variant);
  return <button type={type} className={classes} {...props} />;
}

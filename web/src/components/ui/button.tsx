import type { ButtonHTMLAttributes } from 'react';
import { classNames } from './class-names.ts';
import styles from './button.module.css';

type ButtonVariant = 'primary' | 'secondary' | 'danger' | 'link';

/** The button look, for links that act as the main call to action. */
export function buttonClassName(variant: ButtonVariant = 'secondary'): string {
  return classNames(styles.button, styles[variant]);
}

interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
}

export function Button({ variant, className, type = 'button', ...props }: ButtonProps) {
  return <button type={type} className={classNames(buttonClassName(variant), className)} {...props} />;
}

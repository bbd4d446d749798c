import { useId, type ReactNode } from 'react';
import { classNames } from './class-names.ts';
import styles from './form-panel.module.css';

interface FormPanelProps {
  title: string;
  intro?: ReactNode;
  children: ReactNode;
  /** Links to the neighbouring steps ("No account yet? Sign up"). */
  footer?: ReactNode;
}

/** The narrow, centred card of a single-purpose screen such as sign-in. */
export function FormPanel({ title, intro, children, footer }: FormPanelProps) {
  const titleId = useId();
  return (
    <section className={classNames('panel', styles.formPanel)} aria-labelledby={titleId}>
      <h1 id={titleId} className="panel__title">
        {title}
      </h1>
      {intro && <p className="muted">{intro}</p>}
      {children}
      {footer && <div className={styles.footer}>{footer}</div>}
    </section>
  );
}

import { useEffect, useRef, useState } from 'react';
import { Alert } from '../../components/ui/alert.tsx';
import { LoadingLine } from '../../components/ui/loading-line.tsx';
import { describeError } from '../../lib/api/api-error.ts';
import styles from './api-reference.module.css';

interface ApiReferenceProps {
  /** openapi.yaml, as text. */
  spec: string;
  /** The running stack's API, which "Test request" calls. */
  baseUrl: string;
}

/**
 * Scalar's reference, mounted into a node React leaves alone. Scalar and its styles load only here, from
 * this app's own bundle: no fonts nor scripts from a CDN, no telemetry.
 */
export function ApiReference({ spec, baseUrl }: ApiReferenceProps) {
  const host = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<'loading' | 'ready' | Error>('loading');

  useEffect(() => {
    let unmount: (() => void) | undefined;
    let cancelled = false;
    const dark = window.matchMedia('(prefers-color-scheme: dark)').matches;
    Promise.all([import('@scalar/api-reference'), import('@scalar/api-reference/style.css')])
      .then(([{ createApiReference }]) => {
        if (cancelled || !host.current) return;
        const app = createApiReference(host.current, {
          content: spec,
          servers: [{ url: baseUrl, description: 'This Tasklane' }],
          withDefaultFonts: false,
          telemetry: false,
          hideClientButton: true,
          showDeveloperTools: 'never',
          forceDarkModeState: dark ? 'dark' : 'light',
          hideDarkModeToggle: true,
          documentDownloadType: 'yaml',
        });
        unmount = () => app.destroy();
        setState('ready');
      })
      .catch((error: unknown) => {
        if (!cancelled) setState(error instanceof Error ? error : new Error(String(error)));
      });
    return () => {
      cancelled = true;
      unmount?.();
    };
  }, [spec, baseUrl]);

  return (
    <>
      {state === 'loading' && <LoadingLine>Loading the API reference…</LoadingLine>}
      {state instanceof Error && <Alert>The API reference could not be shown: {describeError(state)}</Alert>}
      <div ref={host} className={styles.host} />
    </>
  );
}

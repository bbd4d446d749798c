import { useEffect, useRef, useState } from 'react';
import { Alert } from '../../components/ui/alert.tsx';
import { LoadingLine } from '../../components/ui/loading-line.tsx';
import type { createApiReference } from '@scalar/api-reference';
import { describeError } from '../../lib/api/api-error.ts';
import styles from './api-reference.module.css';

/**
 * Scalar's default theme, with its muted text and method colours dark enough (light) or light enough
 * (dark) for WCAG AA contrast, its endpoint lists unclipped, so no region scrolls without focus, and
 * the sidebar's fold buttons, which sit on their rows' links, 24 px square (WCAG 2.2's target size).
 * The doubled class outranks the theme's own rules, including its display-p3 ones.
 */
const ACCESSIBLE_THEME = `
.light-mode.light-mode {
  --scalar-color-2: #5c5c5c;
  --scalar-color-3: #616161;
  --scalar-color-blue: #00609c;
  --scalar-color-green: #006b44;
  --scalar-color-red: #b80004;
  --scalar-color-yellow: #7a5d00;
  --scalar-color-orange: #9c4a00;
  --scalar-color-purple: #5203d1;
}
.dark-mode.dark-mode {
  --scalar-color-2: #b4b4b4;
  --scalar-color-3: #a3a3a3;
  --scalar-color-red: #ff7070;
}
.scalar-app .scalar-card-content:has(> ul.endpoints),
.scalar-app ul.endpoints {
  max-height: none;
  overflow: visible;
}
.scalar-app ul.endpoints .endpoint {
  overflow-wrap: anywhere;
}
.scalar-app li[data-sidebar-id] > [class~='group/group-button'] > button[aria-expanded] {
  display: grid;
  place-items: center;
  min-width: 24px;
  min-height: 24px;
}
`;

type ApiReferenceInstance = ReturnType<typeof createApiReference>;

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
    let cancelled = false;
    let reference: ApiReferenceInstance | undefined;
    Promise.all([import('@scalar/api-reference'), import('@scalar/api-reference/style.css')])
      .then(([{ createApiReference }]) => {
        if (cancelled || !host.current) return;
        reference = createApiReference(host.current, {
          content: spec,
          servers: [{ url: baseUrl, description: 'This Tasklane' }],
          withDefaultFonts: false,
          telemetry: false,
          hideClientButton: true,
          showDeveloperTools: 'never',
          // No toggle: Scalar follows the system's scheme, as the app's own CSS does.
          hideDarkModeToggle: true,
          customCss: ACCESSIBLE_THEME,
          documentDownloadType: 'yaml',
          // Every operation listed at once; no AI chat nor MCP, which would call Scalar's servers.
          defaultOpenAllTags: true,
          agent: { disabled: true },
          mcp: { disabled: true },
        });
        setState('ready');
      })
      .catch((error: unknown) => {
        if (!cancelled) setState(error instanceof Error ? error : new Error(String(error)));
      });
    return () => {
      cancelled = true;
      reference?.destroy();
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

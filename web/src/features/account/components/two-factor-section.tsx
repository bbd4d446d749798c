import { useState } from 'react';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { LoadingLine } from '../../../components/ui/loading-line.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { PanelSection } from '../../../components/ui/panel-section.tsx';
import { describeError } from '../../../lib/api/api-error.ts';
import { useMe } from '../api/get-me.ts';
import { RemoveFactor } from './remove-factor.tsx';
import { TotpSetup } from './totp-setup.tsx';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

/** Two-factor authentication: set up an authenticator app, or remove it. */
export function TwoFactorSection() {
  const me = useMe();
  const [done, setDone] = useState<string | null>(null);

  if (me.isPending) {
    return (
      <PanelSection title="Two-factor authentication">
        <LoadingLine>Loading your authenticators…</LoadingLine>
      </PanelSection>
    );
  }
  if (me.error) {
    return (
      <PanelSection title="Two-factor authentication">
        <Alert>
          <p>Your authenticators could not be loaded: {describeError(me.error)}</p>
          <Button onClick={() => void me.refetch()} disabled={me.isFetching}>
            {me.isFetching ? 'Retrying…' : 'Retry'}
          </Button>
        </Alert>
      </PanelSection>
    );
  }
  const verified = me.data.mfa.factors.filter((factor) => factor.status === 'verified');
  return (
    <PanelSection title="Two-factor authentication">
      {done && <Notice onDismiss={() => setDone(null)}>{done}</Notice>}
      {verified.length === 0 ? (
        <TotpSetup onEnabled={() => setDone('Two-factor authentication is on.')} />
      ) : (
        <ul className="factor-list">
          {verified.map((factor) => (
            <li key={factor.id} className="factor-list__item">
              <div>
                <p className="factor-list__name">{factor.friendly_name ?? 'Authenticator app'}</p>
                <p className="muted">Added {dateFormat.format(new Date(factor.created_at))}</p>
              </div>
              <RemoveFactor
                factorId={factor.id}
                onRemoved={() => setDone('Two-factor authentication is off.')}
              />
            </li>
          ))}
        </ul>
      )}
    </PanelSection>
  );
}

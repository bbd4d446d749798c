import type { components } from '@api-spec/schema.d.ts';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { toast } from 'sonner';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { CopyField } from '../../../components/ui/copy-field.tsx';
import { Dialog, DialogCancel } from '../../../components/ui/dialog.tsx';
import { FormActions } from '../../../components/ui/form.tsx';
import { LoadError } from '../../../components/ui/load-error.tsx';
import { LoadingLine } from '../../../components/ui/loading-line.tsx';
import { PanelSection } from '../../../components/ui/panel-section.tsx';
import { paths } from '../../../config/paths.ts';
import { apiBaseUrl } from '../../../lib/api/api-client.ts';
import { describeError } from '../../../lib/api/api-error.ts';
import { useApiTokens } from '../api/list-api-tokens.ts';
import { useRevokeApiToken } from '../api/revoke-api-token.ts';
import { ApiTokenForm } from './api-token-form.tsx';
import styles from './api-tokens-section.module.css';

type ApiToken = components['schemas']['ApiToken'];
type NewApiToken = components['schemas']['NewApiToken'];

/** `/account` → API tokens: create one (its secret shown once), see them all, revoke one. */
export function ApiTokensSection() {
  const [created, setCreated] = useState<NewApiToken>();
  return (
    <PanelSection title="API tokens">
      <p className="muted">
        A token lets a script call the <Link to={paths.docsApi}>API</Link> as you: a read token may only read,
        a write token may also make changes.
      </p>
      {created ? (
        <NewTokenSecret token={created} onDone={() => setCreated(undefined)} />
      ) : (
        <ApiTokenForm onCreated={setCreated} />
      )}
      <TokenList />
    </PanelSection>
  );
}

/** The secret, this once, and a call that works as pasted. */
function NewTokenSecret({ token, onDone }: { token: NewApiToken; onDone: () => void }) {
  const curl = `curl -s ${apiBaseUrl}/v1/workspaces -H "Authorization: Bearer ${token.token}"`;
  return (
    <div className={styles.secret}>
      <p role="status">
        <strong>Token “{token.name}” created.</strong> Copy it now: it is shown only this once.
      </p>
      <CopyField label="Your new token" value={token.token} testId="new-api-token" />
      <CopyField label="Try it: lists your workspaces" value={curl} testId="new-api-token-curl" />
      <FormActions>
        <Button onClick={onDone}>Done, I have copied it</Button>
      </FormActions>
    </div>
  );
}

function TokenList() {
  const tokens = useApiTokens();
  if (tokens.isPending) return <LoadingLine>Loading your tokens…</LoadingLine>;
  if (tokens.isError) {
    return (
      <LoadError
        what="Your tokens"
        error={tokens.error}
        onRetry={() => void tokens.refetch()}
        retrying={tokens.isFetching}
      />
    );
  }
  if (tokens.data.length === 0) {
    return <p className="muted">No tokens yet. Create one above to call the API from a script.</p>;
  }
  return (
    <ul className={styles.list} aria-label="Your API tokens">
      {tokens.data.map((token) => (
        <TokenRow key={token.id} token={token} />
      ))}
    </ul>
  );
}

function TokenRow({ token }: { token: ApiToken }) {
  const [confirming, setConfirming] = useState(false);
  const revoke = useRevokeApiToken();
  const active = token.status === 'active';
  return (
    <li className={styles.row} data-testid="api-token-row">
      <div className={styles.name}>
        <strong>{token.name}</strong>
        <code className={styles.prefix}>{token.prefix}…</code>
      </div>
      <dl className={styles.facts}>
        <div>
          <dt>Scope</dt>
          <dd>{token.scope}</dd>
        </div>
        <div>
          <dt>{statusLabel(token)}</dt>
          <dd>{dateOf(token.status === 'revoked' ? token.revoked_at : token.expires_at)}</dd>
        </div>
        <div>
          <dt>Last used</dt>
          <dd>{token.last_used_at ? dateOf(token.last_used_at) : 'never'}</dd>
        </div>
      </dl>
      {active && (
        <Button onClick={() => setConfirming(true)} aria-label={`Revoke ${token.name}`}>
          Revoke
        </Button>
      )}
      <Dialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`Revoke “${token.name}”?`}
        description="Anything that uses this token gets 401 from its next call. This cannot be undone."
      >
        {revoke.isError && <Alert>{describeError(revoke.error)}</Alert>}
        <FormActions>
          <Button
            variant="danger"
            disabled={revoke.isPending}
            onClick={() =>
              revoke.mutate(token, {
                onSuccess: () => {
                  setConfirming(false);
                  toast.success(`Token “${token.name}” revoked.`);
                },
              })
            }
          >
            {revoke.isPending ? 'Revoking…' : 'Revoke token'}
          </Button>
          <DialogCancel disabled={revoke.isPending}>Keep it</DialogCancel>
        </FormActions>
      </Dialog>
    </li>
  );
}

function statusLabel(token: ApiToken): string {
  if (token.status === 'revoked') return 'Revoked';
  if (token.status === 'expired') return 'Expired';
  return 'Expires';
}

function dateOf(iso: string | null): string {
  return iso ? new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' }) : '—';
}

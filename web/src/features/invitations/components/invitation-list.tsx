import type { components } from '@api-spec/schema.d.ts';
import { useState } from 'react';
import { toast } from 'sonner';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog, DialogCancel } from '../../../components/ui/dialog.tsx';
import { FormActions } from '../../../components/ui/form.tsx';
import { describeError } from '../../../lib/api/api-error.ts';
import { useRevokeInvitation } from '../api/revoke-invitation.ts';
import styles from './invitations.module.css';

type Invitation = components['schemas']['Invitation'];

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

const STATUS_LABELS: Readonly<Record<Invitation['status'], string>> = {
  pending: 'Pending',
  accepted: 'Accepted',
  revoked: 'Revoked',
  expired: 'Expired',
};

/** Pending invitations first (they can be revoked), then the rest, newest first. */
function ordered(invitations: readonly Invitation[]): Invitation[] {
  const pending = invitations.filter((each) => each.status === 'pending');
  const rest = invitations.filter((each) => each.status !== 'pending').reverse();
  return [...pending, ...rest];
}

/** The workspace's invitations with their status and expiry; pending ones can be revoked. */
export function InvitationList({ slug, invitations }: { slug: string; invitations: readonly Invitation[] }) {
  const [revoking, setRevoking] = useState<Invitation | null>(null);
  if (invitations.length === 0) {
    return <p className={styles.empty}>No invitations yet. Invite someone by e-mail above.</p>;
  }
  return (
    <>
      <ul className={styles.list} aria-label="Invitations">
        {ordered(invitations).map((invitation) => (
          <li key={invitation.id} className={styles.row} data-testid="invitation-row">
            <span className={styles.email}>{invitation.email}</span>
            <span className={styles.meta}>
              <span className={styles.role}>{invitation.role}</span>
              <span className={styles.status} data-status={invitation.status}>
                {STATUS_LABELS[invitation.status]}
              </span>
              <span className={styles.expiry}>{expiry(invitation)}</span>
            </span>
            <span className={styles.actions}>
              {invitation.status === 'pending' && (
                <Button
                  onClick={() => setRevoking(invitation)}
                  aria-label={`Revoke the invitation of ${invitation.email}`}
                >
                  Revoke
                </Button>
              )}
            </span>
          </li>
        ))}
      </ul>
      <RevokeDialog slug={slug} invitation={revoking} onClose={() => setRevoking(null)} />
    </>
  );
}

function expiry(invitation: Invitation): string {
  const date = dateFormat.format(new Date(invitation.expires_at));
  if (invitation.status === 'pending') return `Expires ${date}`;
  if (invitation.status === 'expired') return `Expired ${date}`;
  return '';
}

function RevokeDialog({
  slug,
  invitation,
  onClose,
}: {
  slug: string;
  invitation: Invitation | null;
  onClose: () => void;
}) {
  const revoke = useRevokeInvitation(slug);
  function close() {
    revoke.reset();
    onClose();
  }
  return (
    <Dialog
      open={invitation !== null}
      onOpenChange={(open) => !open && close()}
      title="Revoke this invitation?"
      description={`The link sent to ${invitation?.email ?? ''} will stop working. You can invite the address again.`}
    >
      <div className={styles.dialogBody}>
        {revoke.error && <Alert>{describeError(revoke.error)}</Alert>}
        <FormActions>
          <DialogCancel />
          <Button
            variant="danger"
            disabled={revoke.isPending}
            onClick={() => {
              if (!invitation) return;
              revoke.mutate(invitation, {
                onSuccess: () => {
                  toast.success(`The invitation of ${invitation.email} was revoked.`);
                  close();
                },
              });
            }}
          >
            {revoke.isPending ? 'Revoking…' : 'Revoke'}
          </Button>
        </FormActions>
      </div>
    </Dialog>
  );
}

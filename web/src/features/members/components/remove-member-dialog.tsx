import type { components } from '@api-spec/schema.d.ts';
import { toast } from 'sonner';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog, DialogCancel } from '../../../components/ui/dialog.tsx';
import { FormActions } from '../../../components/ui/form.tsx';
import { describeError } from '../../../lib/api/api-error.ts';
import { useRemoveMember } from '../api/remove-member.ts';
import { LAST_OWNER_EXPLANATION } from '../member-permissions.ts';
import styles from './member-list.module.css';

type Member = components['schemas']['Member'];

interface RemoveMemberDialogProps {
  slug: string;
  /** Whom to remove; `null` keeps the dialog closed. */
  member: Member | null;
  /** The signed-in person's user id: removing them is leaving. */
  callerId: string;
  lastOwner: boolean;
  onClose: () => void;
  onLeft: () => void;
}

/**
 * Asks before removing a member or leaving. The last owner is told why they can't, before the API has to
 * refuse; the API's own refusal (someone changed roles meanwhile) still shows here.
 */
export function RemoveMemberDialog({
  slug,
  member,
  callerId,
  lastOwner,
  onClose,
  onLeft,
}: RemoveMemberDialogProps) {
  const remove = useRemoveMember(slug, callerId);
  const isSelf = member?.user_id === callerId;
  const name = member ? member.display_name || member.email : '';
  const title = isSelf ? 'Leave this workspace?' : `Remove ${name}?`;

  function close() {
    remove.reset();
    onClose();
  }

  function confirm() {
    if (!member) return;
    remove.mutate(member, {
      onSuccess: () => {
        close();
        if (isSelf) {
          toast.success('You left the workspace.');
          onLeft();
        } else {
          toast.success(`${name} was removed.`);
        }
      },
    });
  }

  return (
    <Dialog open={member !== null} onOpenChange={(open) => !open && close()} title={title}>
      <div className={styles.dialogBody}>
        {lastOwner ? (
          <p data-testid="last-owner-refusal">
            {isSelf ? 'You are' : `${name} is`} the only owner of this workspace. {LAST_OWNER_EXPLANATION}
          </p>
        ) : (
          <p className="muted">
            {isSelf
              ? 'You will lose access to its projects and tasks until someone invites you again.'
              : `${name} will lose access to its projects and tasks. Their tasks and comments stay.`}
          </p>
        )}
        {remove.error && <Alert>{describeError(remove.error)}</Alert>}
        <FormActions>
          <DialogCancel>{lastOwner ? 'Close' : 'Cancel'}</DialogCancel>
          {!lastOwner && (
            <Button variant="danger" onClick={confirm} disabled={remove.isPending}>
              {remove.isPending ? 'Removing…' : isSelf ? 'Leave workspace' : 'Remove'}
            </Button>
          )}
        </FormActions>
      </div>
    </Dialog>
  );
}

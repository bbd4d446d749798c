import type { components } from '@api-spec/schema.d.ts';
import type { ReactNode } from 'react';
import { toast } from 'sonner';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog, DialogCancel } from '../../../components/ui/dialog.tsx';
import { FormActions } from '../../../components/ui/form.tsx';
import { describeError } from '../../../lib/api/api-error.ts';
import { useDeleteLabel } from '../api/delete-label.ts';
import styles from './labels.module.css';

type Label = components['schemas']['Label'];

interface DeleteLabelDialogProps {
  slug: string;
  /** The label to delete; `null` closes the dialog. */
  label: Label | null;
  /** How many tasks use it, as a sentence. */
  usage: ReactNode;
  onClose: () => void;
}

/** Asks before deleting a label, saying how many tasks lose it. */
export function DeleteLabelDialog({ slug, label, usage, onClose }: DeleteLabelDialogProps) {
  const remove = useDeleteLabel(slug);
  function close() {
    remove.reset();
    onClose();
  }
  return (
    <Dialog
      open={label !== null}
      onOpenChange={(open) => !open && close()}
      title={label ? `Delete the label ${label.name}?` : 'Delete the label?'}
    >
      <div className={styles.confirm}>
        <p className={styles.usage}>{usage}</p>
        <p className="muted">The label is taken off every task that has it. This cannot be undone.</p>
        {remove.error && <Alert>{describeError(remove.error)}</Alert>}
        <FormActions>
          <DialogCancel />
          <Button
            variant="danger"
            disabled={remove.isPending || label === null}
            onClick={() =>
              label &&
              remove.mutate(label, {
                onSuccess: () => {
                  toast.success(`Label ${label.name} deleted.`);
                  close();
                },
              })
            }
          >
            {remove.isPending ? 'Deleting…' : 'Delete label'}
          </Button>
        </FormActions>
      </div>
    </Dialog>
  );
}

import type { components } from '@api-spec/schema.d.ts';
import { useState, type FormEvent } from 'react';
import { Dialog, DialogCancel } from '../../../components/ui/dialog.tsx';
import { Form, FormActions } from '../../../components/ui/form.tsx';
import { SubmitButton } from '../../../components/ui/submit-button.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { describeError } from '../../../lib/api/api-error.ts';
import { useDeleteWorkspace } from '../api/delete-workspace.ts';

type Workspace = components['schemas']['Workspace'];

interface DeleteWorkspaceDialogProps {
  workspace: Workspace;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onDeleted: () => void;
}

/** Deletes the workspace for good once its slug is typed. */
export function DeleteWorkspaceDialog({
  workspace,
  open,
  onOpenChange,
  onDeleted,
}: DeleteWorkspaceDialogProps) {
  const remove = useDeleteWorkspace();
  const [typed, setTyped] = useState('');
  const [shown, setShown] = useState(false);
  const matches = typed === workspace.slug;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setShown(true);
    if (matches) remove.mutate(workspace, { onSuccess: onDeleted });
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) {
          setTyped('');
          setShown(false);
          remove.reset();
        }
        onOpenChange(next);
      }}
      title="Delete this workspace?"
      description="Its projects, tasks, comments, labels, members and invitations are deleted for good. This cannot be undone."
    >
      <Form onSubmit={submit} error={remove.error ? describeError(remove.error) : undefined}>
        <TextField
          label={`Type ${workspace.slug} to confirm`}
          name="confirm-slug"
          value={typed}
          autoComplete="off"
          spellCheck={false}
          error={shown && !matches ? `Type the slug exactly: ${workspace.slug}.` : undefined}
          onChange={(event) => setTyped(event.target.value)}
        />
        <FormActions>
          <DialogCancel />
          <SubmitButton variant="danger" pending={remove.isPending} pendingLabel="Deleting…">
            Delete workspace
          </SubmitButton>
        </FormActions>
      </Form>
    </Dialog>
  );
}

import type { components } from '@api-spec/schema.d.ts';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { Form, FormActions } from '../../../components/ui/form.tsx';
import { SubmitButton } from '../../../components/ui/submit-button.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { describeError } from '../../../lib/api/api-error.ts';
import { useDeleteProject } from '../api/delete-project.ts';

type Project = components['schemas']['Project'];

interface DeleteProjectDialogProps {
  slug: string;
  /** The project to delete; `null` closes the dialog. */
  project: Project | null;
  onClose: () => void;
}

/** Deletes a project with its tasks, once its key has been typed. */
export function DeleteProjectDialog({ slug, project, onClose }: DeleteProjectDialogProps) {
  return (
    <Dialog
      open={project !== null}
      onOpenChange={(open) => !open && onClose()}
      title={project ? `Delete ${project.name}?` : 'Delete the project?'}
      description="Its tasks and their comments are deleted with it, for good. Archive it instead to keep them."
    >
      {project && <DeleteProjectForm key={project.id} slug={slug} project={project} onDone={onClose} />}
    </Dialog>
  );
}

function DeleteProjectForm({
  slug,
  project,
  onDone,
}: {
  slug: string;
  project: Project;
  onDone: () => void;
}) {
  const remove = useDeleteProject(slug);
  const [typed, setTyped] = useState('');
  const [tried, setTried] = useState(false);
  const matches = typed === project.key;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setTried(true);
    if (!matches) return;
    remove.mutate(project, {
      onSuccess: () => {
        toast.success(`Project ${project.key} deleted.`);
        onDone();
      },
    });
  }

  return (
    <Form onSubmit={submit} error={remove.error ? describeError(remove.error) : undefined}>
      <TextField
        label={`Type ${project.key} to confirm`}
        name="confirm"
        value={typed}
        autoComplete="off"
        spellCheck={false}
        error={tried && !matches ? `Type the key ${project.key} exactly.` : undefined}
        onChange={(event) => {
          setTyped(event.target.value);
          remove.reset();
        }}
      />
      <FormActions>
        <SubmitButton variant="danger" pending={remove.isPending} pendingLabel="Deleting…">
          Delete project
        </SubmitButton>
      </FormActions>
    </Form>
  );
}

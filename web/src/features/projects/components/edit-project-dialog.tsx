import type { components } from '@api-spec/schema.d.ts';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { Form, FormActions } from '../../../components/ui/form.tsx';
import { SubmitButton } from '../../../components/ui/submit-button.tsx';
import { describeError } from '../../../lib/api/api-error.ts';
import { hasErrors } from '../../../lib/forms/form-validation.ts';
import { useUpdateProject } from '../api/update-project.ts';
import { validateProjectChange, type ProjectField } from '../project-forms.ts';
import { ProjectIdentityFields, projectApiErrors } from './project-identity-fields.tsx';
import styles from './projects.module.css';

type Project = components['schemas']['Project'];

interface EditProjectDialogProps {
  slug: string;
  /** The project being edited; `null` closes the dialog. */
  project: Project | null;
  onClose: () => void;
}

/** Rename a project or change its key, warned that the old task keys stop resolving. */
export function EditProjectDialog({ slug, project, onClose }: EditProjectDialogProps) {
  return (
    <Dialog open={project !== null} onOpenChange={(open) => !open && onClose()} title="Edit project">
      {project && <EditProjectForm key={project.id} slug={slug} project={project} onDone={onClose} />}
    </Dialog>
  );
}

function EditProjectForm({ slug, project, onDone }: { slug: string; project: Project; onDone: () => void }) {
  const update = useUpdateProject(slug);
  const [values, setValues] = useState({ name: project.name, key: project.key });
  const checked = validateProjectChange(values);
  const ruleErrors = checked.ok ? {} : checked.errors;
  const apiErrors = projectApiErrors(update.error);
  const errorOf = (field: ProjectField) => ruleErrors[field] ?? apiErrors[field];
  const failure = update.error && !hasErrors(apiErrors) ? describeError(update.error) : undefined;
  const keyChanges = values.key !== project.key;

  function change(field: 'name' | 'key', value: string) {
    setValues((before) => ({ ...before, [field]: value }));
    update.reset();
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!checked.ok) return;
    const patch = {
      ...(checked.data.name !== project.name ? { name: checked.data.name } : {}),
      ...(keyChanges ? { key: values.key } : {}),
    };
    update.mutate(
      { project, patch },
      {
        onSuccess: (saved) => {
          toast.success(`Project ${saved.key} saved.`);
          onDone();
        },
      },
    );
  }

  return (
    <Form onSubmit={submit} error={failure}>
      <ProjectIdentityFields values={values} errorOf={errorOf} onChange={change} />
      {keyChanges && !errorOf('key') && (
        <p className={styles.warning} role="note">
          Every task is renumbered: {project.key}-1 becomes {values.key}-1. Links and API calls that use the
          old keys ({project.key}-…) keep finding their tasks until another project takes {project.key}.
        </p>
      )}
      <FormActions>
        <SubmitButton pending={update.isPending} pendingLabel="Saving…">
          Save
        </SubmitButton>
      </FormActions>
    </Form>
  );
}

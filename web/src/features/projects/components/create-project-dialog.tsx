import type { components } from '@api-spec/schema.d.ts';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { Form, FormActions } from '../../../components/ui/form.tsx';
import { SubmitButton } from '../../../components/ui/submit-button.tsx';
import { describeError } from '../../../lib/api/api-error.ts';
import { useCreateProject } from '../api/create-project.ts';
import { validateNewProject, type ProjectField } from '../project-forms.ts';
import { suggestProjectKey } from '@shared/vocabulary/project-key.ts';
import { ProjectIdentityFields, projectApiErrors } from './project-identity-fields.tsx';
import styles from './projects.module.css';

type Project = components['schemas']['Project'];

interface CreateProjectDialogProps {
  slug: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCreated: (project: Project) => void;
}

/** Name, key and description of a new project; the key is suggested from the name until it is edited. */
export function CreateProjectDialog({ slug, open, onOpenChange, onCreated }: CreateProjectDialogProps) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="New project"
      description="A project is a board of tasks. Its key prefixes every task's number, as in ENG-42."
    >
      {/* Mounted only while open, so each opening starts with an empty form. */}
      {open && <CreateProjectForm slug={slug} onCreated={onCreated} />}
    </Dialog>
  );
}

function CreateProjectForm({ slug, onCreated }: { slug: string; onCreated: (project: Project) => void }) {
  const create = useCreateProject(slug);
  const [values, setValues] = useState({ name: '', key: '', description: '' });
  const [keyEdited, setKeyEdited] = useState(false);
  const [shown, setShown] = useState<Partial<Record<ProjectField, boolean>>>({});

  const checked = validateNewProject(values);
  const ruleErrors = checked.ok ? {} : checked.errors;
  const apiErrors = projectApiErrors(create.error);
  const errorOf = (field: ProjectField) => (shown[field] ? ruleErrors[field] : undefined) ?? apiErrors[field];
  const fieldFailed = Object.values(apiErrors).some(Boolean);
  const failure = create.error && !fieldFailed ? describeError(create.error) : undefined;

  function change(field: ProjectField, value: string) {
    setValues((before) => {
      const next = { ...before, [field]: value };
      if (field === 'name' && !keyEdited) next.key = suggestProjectKey(value);
      return next;
    });
    if (field === 'key') setKeyEdited(true);
    setShown((before) => ({ ...before, [field]: true }));
    create.reset();
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setShown({ name: true, key: true, description: true });
    if (!checked.ok) return;
    create.mutate(checked.data, {
      onSuccess: (project) => {
        toast.success(`Project ${project.name} created.`);
        onCreated(project);
      },
    });
  }

  return (
    <Form onSubmit={submit} error={failure}>
      <ProjectIdentityFields values={values} errorOf={errorOf} onChange={change} />
      <label className={styles.textareaField}>
        <span className={styles.textareaLabel}>Description (optional)</span>
        <textarea
          name="description"
          rows={3}
          value={values.description}
          className={styles.textarea}
          aria-invalid={errorOf('description') ? true : undefined}
          onChange={(event) => change('description', event.target.value)}
        />
        {errorOf('description') && <span className={styles.fieldError}>{errorOf('description')}</span>}
      </label>
      <FormActions>
        <SubmitButton pending={create.isPending} pendingLabel="Creating…">
          Create project
        </SubmitButton>
      </FormActions>
    </Form>
  );
}

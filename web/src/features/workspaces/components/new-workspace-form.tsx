import { suggestSlug } from '@api/workspaces/workspaces.schemas.ts';
import type { components } from '@api-spec/schema.d.ts';
import { useState, type FormEvent } from 'react';
import { Form, FormActions } from '../../../components/ui/form.tsx';
import { SubmitButton } from '../../../components/ui/submit-button.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { ApiError, describeError } from '../../../lib/api/api-error.ts';
import { apiFieldErrors } from '../../../lib/forms/form-validation.ts';
import { useCreateWorkspace } from '../api/create-workspace.ts';
import { validateNewWorkspace, WORKSPACE_LABELS, type WorkspaceField } from '../workspace-forms.ts';

type Workspace = components['schemas']['Workspace'];

/**
 * Name and slug of a new workspace. The slug follows the name until it is edited; each field is checked
 * with the API's rules as soon as it is touched, and the API's own refusal (a taken slug) sits beside it.
 */
export function NewWorkspaceForm({ onCreated }: { onCreated: (workspace: Workspace) => void }) {
  const create = useCreateWorkspace();
  const [name, setName] = useState('');
  const [slug, setSlug] = useState('');
  const [slugEdited, setSlugEdited] = useState(false);
  const [shown, setShown] = useState<Partial<Record<WorkspaceField, boolean>>>({});

  const checked = validateNewWorkspace({ name, slug });
  const ruleErrors = checked.ok ? {} : checked.errors;
  const apiErrors = apiFieldErrors(create.error, WORKSPACE_LABELS);
  if (create.error instanceof ApiError && create.error.code === 'slug_taken')
    apiErrors.slug = create.error.detail;
  const errorOf = (field: WorkspaceField) =>
    (shown[field] ? ruleErrors[field] : undefined) ?? apiErrors[field];
  const failure =
    create.error && !apiErrors.name && !apiErrors.slug ? describeError(create.error) : undefined;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setShown({ name: true, slug: true });
    if (checked.ok) create.mutate(checked.data, { onSuccess: (workspace) => onCreated(workspace) });
  }

  return (
    <Form onSubmit={submit} error={failure}>
      <TextField
        label="Name"
        name="name"
        value={name}
        autoComplete="organization"
        // The first screen after signing up, with one thing to do.
        autoFocus
        hint="Your team or company, as your teammates know it."
        error={errorOf('name')}
        onChange={(event) => {
          const next = event.target.value;
          setName(next);
          if (!slugEdited) setSlug(suggestSlug(next));
          setShown((before) => ({ ...before, name: true }));
          create.reset();
        }}
      />
      <TextField
        label="Slug"
        name="slug"
        value={slug}
        autoComplete="off"
        spellCheck={false}
        hint={`Its address: /w/${slug || 'your-team'}. Lower-case letters, digits and hyphens.`}
        error={errorOf('slug')}
        onBlur={() => setShown((before) => ({ ...before, slug: true }))}
        onChange={(event) => {
          setSlug(event.target.value);
          setSlugEdited(true);
          setShown((before) => ({ ...before, slug: true }));
          create.reset();
        }}
      />
      <FormActions>
        <SubmitButton pending={create.isPending} pendingLabel="Creating…">
          Create workspace
        </SubmitButton>
      </FormActions>
    </Form>
  );
}

import type { components } from '@api-spec/schema.d.ts';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Form, FormActions } from '../../../components/ui/form.tsx';
import { SubmitButton } from '../../../components/ui/submit-button.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { ApiError, describeError } from '../../../lib/api/api-error.ts';
import { apiFieldErrors } from '../../../lib/forms/form-validation.ts';
import { useUpdateWorkspace, type WorkspacePatch } from '../api/update-workspace.ts';
import { validateWorkspaceChange, WORKSPACE_LABELS } from '../workspace-forms.ts';
import styles from './workspace-settings.module.css';

type Workspace = components['schemas']['Workspace'];

interface WorkspaceGeneralFormProps {
  workspace: Workspace;
  /** After a change is saved, with the workspace as it now is (its slug may be new). */
  onSaved: (workspace: Workspace) => void;
}

/**
 * The workspace's name and slug, checked with the API's rules as they are typed. Changing the slug warns
 * that links to the old address stop working.
 */
export function WorkspaceGeneralForm({ workspace, onSaved }: WorkspaceGeneralFormProps) {
  const update = useUpdateWorkspace();
  const [name, setName] = useState(workspace.name);
  const [slug, setSlug] = useState(workspace.slug);

  const patch: WorkspacePatch = {
    ...(name !== workspace.name ? { name } : {}),
    ...(slug !== workspace.slug ? { slug } : {}),
  };
  const checked = validateWorkspaceChange(patch);
  const ruleErrors = checked.ok ? {} : checked.errors;
  const apiErrors = apiFieldErrors(update.error, WORKSPACE_LABELS);
  if (update.error instanceof ApiError && update.error.code === 'slug_taken')
    apiErrors.slug = update.error.detail;
  const failure =
    update.error && !apiErrors.name && !apiErrors.slug ? describeError(update.error) : undefined;
  const changed = Object.keys(patch).length > 0;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!checked.ok || !changed) return;
    update.mutate(
      { workspace, patch: checked.data },
      {
        onSuccess: (saved) => {
          toast.success('Workspace settings saved.');
          onSaved(saved);
        },
      },
    );
  }

  return (
    <Form onSubmit={submit} error={failure}>
      <TextField
        label="Name"
        name="name"
        value={name}
        autoComplete="organization"
        error={ruleErrors.name ?? apiErrors.name}
        onChange={(event) => {
          setName(event.target.value);
          update.reset();
        }}
      />
      <TextField
        label="Slug"
        name="slug"
        value={slug}
        autoComplete="off"
        spellCheck={false}
        error={ruleErrors.slug ?? apiErrors.slug}
        hint={
          slug !== workspace.slug ? (
            <span className={styles.warning} data-testid="slug-warning">
              The workspace moves to /w/{slug || '…'}. Links and bookmarks to /w/{workspace.slug} will stop
              working.
            </span>
          ) : (
            `Its address: /w/${workspace.slug}. Lower-case letters, digits and hyphens.`
          )
        }
        onChange={(event) => {
          setSlug(event.target.value);
          update.reset();
        }}
      />
      <FormActions>
        <SubmitButton pending={update.isPending} pendingLabel="Saving…">
          Save changes
        </SubmitButton>
      </FormActions>
    </Form>
  );
}

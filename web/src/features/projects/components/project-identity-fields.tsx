import { TextField } from '../../../components/ui/text-field.tsx';
import { ApiError } from '../../../lib/api/api-error.ts';
import { apiFieldErrors, type FieldErrors } from '../../../lib/forms/form-validation.ts';
import { PROJECT_LABELS, type ProjectField } from '../project-forms.ts';
import styles from './projects.module.css';

interface ProjectIdentityFieldsProps {
  values: { name: string; key: string };
  errorOf: (field: ProjectField) => string | undefined;
  onChange: (field: 'name' | 'key', value: string) => void;
}

/** A project's name and key, as the create and edit dialogs both ask for them. */
export function ProjectIdentityFields({ values, errorOf, onChange }: ProjectIdentityFieldsProps) {
  return (
    <>
      <TextField
        label="Name"
        name="name"
        value={values.name}
        autoComplete="off"
        error={errorOf('name')}
        onChange={(event) => onChange('name', event.target.value)}
      />
      <TextField
        label="Key"
        name="key"
        value={values.key}
        autoComplete="off"
        spellCheck={false}
        className={styles.keyInput}
        hint="2–10 capital letters or digits, starting with a letter."
        error={errorOf('key')}
        onChange={(event) => onChange('key', event.target.value)}
      />
    </>
  );
}

/** The API's field errors of a project's create or change, a taken key beside the key. */
export function projectApiErrors(error: unknown): FieldErrors<ProjectField> {
  const errors = apiFieldErrors(error, PROJECT_LABELS);
  if (error instanceof ApiError && error.code === 'project_key_taken') errors.key = error.detail;
  return errors;
}

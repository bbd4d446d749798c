import type { components } from '@api-spec/schema.d.ts';
import { useState, type FormEvent } from 'react';
import { Form, FormActions } from '../../../components/ui/form.tsx';
import { SubmitButton } from '../../../components/ui/submit-button.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { describeError } from '../../../lib/api/api-error.ts';
import { hasErrors } from '../../../lib/forms/form-validation.ts';
import { labelApiErrors, validateLabel, type LabelField } from '../label-forms.ts';
import { LabelColorField } from './label-color-field.tsx';
import styles from './labels.module.css';

type CreateLabel = components['schemas']['CreateLabel'];

interface LabelFormProps {
  initial: CreateLabel;
  submitLabel: string;
  pendingLabel: string;
  pending: boolean;
  /** The API's refusal of the last submit, if any: shown beside its field, or above the form. */
  error: unknown;
  onSubmit: (label: CreateLabel) => void;
  /** Called on every edit, so the caller can clear the last refusal. */
  onEdit: () => void;
  /** Lay name, colour and button out in one row (the create form above the list). */
  inline?: boolean;
}

/** A label's name and colour, checked with the API's rules as they are typed. */
export function LabelForm(props: LabelFormProps) {
  const { initial, submitLabel, pendingLabel, pending, error, onSubmit, onEdit, inline = false } = props;
  const [values, setValues] = useState(initial);
  const [shown, setShown] = useState<Partial<Record<LabelField, boolean>>>({});

  const checked = validateLabel(values);
  const ruleErrors = checked.ok ? {} : checked.errors;
  const apiErrors = labelApiErrors(error);
  const errorOf = (field: LabelField) => (shown[field] ? ruleErrors[field] : undefined) ?? apiErrors[field];
  const failure = error && !hasErrors(apiErrors) ? describeError(error) : undefined;

  function change(field: LabelField, value: string) {
    setValues((before) => ({ ...before, [field]: value }));
    setShown((before) => ({ ...before, [field]: true }));
    onEdit();
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setShown({ name: true, color: true });
    if (checked.ok) onSubmit(checked.data);
  }

  return (
    <Form onSubmit={submit} error={failure} className={inline ? styles.inlineForm : undefined}>
      <TextField
        label="Name"
        name="name"
        value={values.name}
        autoComplete="off"
        error={errorOf('name')}
        onChange={(event) => change('name', event.target.value)}
      />
      <LabelColorField
        value={values.color}
        error={errorOf('color')}
        onChange={(color) => change('color', color)}
      />
      <FormActions>
        <SubmitButton pending={pending} pendingLabel={pendingLabel}>
          {submitLabel}
        </SubmitButton>
      </FormActions>
    </Form>
  );
}

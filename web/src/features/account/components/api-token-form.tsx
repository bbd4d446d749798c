import type { components } from '@api-spec/schema.d.ts';
import { useId } from 'react';
import { Alert } from '../../../components/ui/alert.tsx';
import { Form, FormActions } from '../../../components/ui/form.tsx';
import { SubmitButton } from '../../../components/ui/submit-button.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import fieldStyles from '../../../components/ui/text-field.module.css';
import { describeError } from '../../../lib/api/api-error.ts';
import { apiFieldErrors, formText } from '../../../lib/forms/form-validation.ts';
import { useValidatedSubmit } from '../../../lib/forms/validated-submit.ts';
import { API_TOKEN_LABELS, validateApiToken } from '../account-forms.ts';
import { useCreateApiToken } from '../api/create-api-token.ts';
import styles from './api-tokens-section.module.css';

type NewApiToken = components['schemas']['NewApiToken'];

const LIFETIMES = [
  { days: 7, label: '7 days' },
  { days: 30, label: '30 days' },
  { days: 90, label: '90 days' },
  { days: 365, label: '1 year' },
] as const;

const SCOPES = [
  { scope: 'read', label: 'Read', hint: 'GET only: lists and reads' },
  { scope: 'write', label: 'Write', hint: 'also creates, changes and deletes' },
] as const;

export function ApiTokenForm({ onCreated }: { onCreated: (token: NewApiToken) => void }) {
  const create = useCreateApiToken();
  const { errors, submit } = useValidatedSubmit({
    mutation: create,
    validate: (form) =>
      validateApiToken({
        name: formText(form, 'name'),
        scope: formText(form, 'scope'),
        expires_in_days: Number(formText(form, 'expires_in_days')),
      }),
    send: (body, form) =>
      create.mutate(body, {
        onSuccess: (token) => {
          form.reset();
          onCreated(token);
        },
      }),
  });
  const fromApi = apiFieldErrors(create.error, API_TOKEN_LABELS);
  const failure = create.error && Object.keys(fromApi).length === 0 ? describeError(create.error) : undefined;
  const expiryId = useId();
  const scopeErrorId = useId();
  const scopeError = errors.scope ?? fromApi.scope;
  const expiryError = errors.expires_in_days ?? fromApi.expires_in_days;

  return (
    <Form onSubmit={submit} className={styles.form}>
      {failure && <Alert>{failure}</Alert>}
      <TextField
        label="Name"
        name="name"
        hint="What it is for, so you recognise it later: “Nightly CI”."
        autoComplete="off"
        error={errors.name ?? fromApi.name}
      />
      <fieldset className={styles.scopes} aria-describedby={scopeError ? scopeErrorId : undefined}>
        <legend className={fieldStyles.label}>Scope</legend>
        {SCOPES.map(({ scope, label, hint }) => (
          <label key={scope} className={styles.scope}>
            <input type="radio" name="scope" value={scope} defaultChecked={scope === 'read'} />
            <span>
              {label} <span className="muted">— {hint}</span>
            </span>
          </label>
        ))}
        {scopeError && (
          <p id={scopeErrorId} className={fieldStyles.error}>
            {scopeError}
          </p>
        )}
      </fieldset>
      <div className={fieldStyles.field}>
        <label className={fieldStyles.label} htmlFor={expiryId}>
          Expires after
        </label>
        <select
          id={expiryId}
          name="expires_in_days"
          className={fieldStyles.input}
          defaultValue="90"
          aria-invalid={expiryError ? true : undefined}
        >
          {LIFETIMES.map(({ days, label }) => (
            <option key={days} value={days}>
              {label}
            </option>
          ))}
        </select>
        {expiryError && <p className={fieldStyles.error}>{expiryError}</p>}
      </div>
      <FormActions>
        <SubmitButton pending={create.isPending} pendingLabel="Creating…">
          Create token
        </SubmitButton>
      </FormActions>
    </Form>
  );
}

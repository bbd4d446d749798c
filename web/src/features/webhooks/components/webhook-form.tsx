import type { components } from '@api-spec/schema.d.ts';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { DialogCancel } from '../../../components/ui/dialog.tsx';
import { Form, FormActions } from '../../../components/ui/form.tsx';
import { SubmitButton } from '../../../components/ui/submit-button.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { describeError } from '../../../lib/api/api-error.ts';
import { hasErrors } from '../../../lib/forms/form-validation.ts';
import {
  validateWebhook,
  webhookApiErrors,
  type WebhookField,
  type WebhookFormValues,
} from '../webhook-forms.ts';
import { EventPicker } from './event-picker.tsx';

type CreateWebhook = components['schemas']['CreateWebhook'];

interface WebhookFormProps {
  pending: boolean;
  /** The API's refusal of the last submit, if any: shown beside its field, or above the form. */
  error: unknown;
  onSubmit: (webhook: CreateWebhook) => void;
  /** Called on every edit, so the caller can clear the last refusal. */
  onEdit: () => void;
}

/** A new webhook's URL and events, checked with the API's rules as they are typed. */
export function WebhookForm({ pending, error, onSubmit, onEdit }: WebhookFormProps) {
  const [values, setValues] = useState<WebhookFormValues>({ url: '', events: [] });
  const [shown, setShown] = useState<Partial<Record<WebhookField, boolean>>>({});

  const checked = validateWebhook(values);
  const ruleErrors = checked.ok ? {} : checked.errors;
  const apiErrors = webhookApiErrors(error);
  const errorOf = (field: WebhookField) => (shown[field] ? ruleErrors[field] : undefined) ?? apiErrors[field];
  const failure = error && !hasErrors(apiErrors) ? describeError(error) : undefined;

  // The events fill the dialog, so Add webhook is far below the URL: a refused URL takes the focus, in view.
  const urlBox = useRef<HTMLDivElement>(null);
  const refusedUrl = apiErrors.url;
  useEffect(() => {
    if (refusedUrl) urlBox.current?.querySelector('input')?.focus();
  }, [refusedUrl]);

  function change(patch: Partial<WebhookFormValues>) {
    setValues((before) => ({ ...before, ...patch }));
    setShown((before) => ({
      ...before,
      ...Object.fromEntries(Object.keys(patch).map((key) => [key, true])),
    }));
    onEdit();
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setShown({ url: true, events: true });
    if (checked.ok) onSubmit(checked.data);
  }

  return (
    <Form onSubmit={submit} error={failure}>
      <div ref={urlBox}>
        <TextField
          label="URL"
          name="url"
          type="url"
          inputMode="url"
          placeholder="https://hooks.example.com/tasklane"
          hint="Where each event is POSTed, signed. It must be https:// and reach a public address."
          value={values.url}
          autoComplete="off"
          spellCheck={false}
          error={errorOf('url')}
          onChange={(event) => change({ url: event.target.value })}
        />
      </div>
      <EventPicker
        value={values.events}
        error={errorOf('events')}
        onChange={(events) => change({ events })}
      />
      <FormActions>
        <SubmitButton pending={pending} pendingLabel="Adding…">
          Add webhook
        </SubmitButton>
        <DialogCancel />
      </FormActions>
    </Form>
  );
}

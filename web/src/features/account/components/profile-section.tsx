import { useState, type FormEvent } from 'react';
import type { components } from '@api-spec/schema.d.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { LoadingLine } from '../../../components/ui/loading-line.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { PanelSection } from '../../../components/ui/panel-section.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { describeError } from '../../../lib/api-error.ts';
import { apiFieldErrors, formText, type FieldErrors } from '../../../lib/form-validation.ts';
import { PROFILE_LABELS, validateProfile, type ProfileField } from '../account-forms.ts';
import { useMe } from '../api/get-me.ts';
import { useUpdateMe } from '../api/update-me.ts';

type Me = components['schemas']['Me'];

export function ProfileSection() {
  const me = useMe();
  return (
    <PanelSection title="Profile">
      {me.isPending ? (
        <LoadingLine>Loading your profile…</LoadingLine>
      ) : me.error ? (
        <Alert>
          <p>Your profile could not be loaded: {describeError(me.error)}</p>
          <Button onClick={() => void me.refetch()} disabled={me.isFetching}>
            {me.isFetching ? 'Retrying…' : 'Retry'}
          </Button>
        </Alert>
      ) : (
        <ProfileForm me={me.data} />
      )}
    </PanelSection>
  );
}

function ProfileForm({ me }: { me: Me }) {
  const update = useUpdateMe();
  const [errors, setErrors] = useState<FieldErrors<ProfileField>>({});
  const fromApi = apiFieldErrors(update.error, PROFILE_LABELS);
  const failure = update.error && !fromApi.display_name ? describeError(update.error) : null;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const checked = validateProfile({ display_name: formText(event.currentTarget, 'display_name') });
    setErrors(checked.ok ? {} : checked.errors);
    if (!checked.ok) {
      update.reset();
      return;
    }
    update.mutate(checked.data);
  }

  return (
    <form className="form" noValidate onSubmit={submit}>
      <p className="muted">
        Signed in as <strong>{me.email}</strong>
      </p>
      {failure && <Alert>{failure}</Alert>}
      <TextField
        label="Display name"
        name="display_name"
        defaultValue={me.display_name}
        autoComplete="name"
        required
        hint="The name your teammates see."
        error={errors.display_name ?? fromApi.display_name}
        onChange={() => {
          if (update.isSuccess) update.reset();
        }}
      />
      <div className="form__actions">
        <Button type="submit" variant="primary" disabled={update.isPending}>
          {update.isPending ? 'Saving…' : 'Save'}
        </Button>
      </div>
      {update.isSuccess && <Notice>Your display name was saved.</Notice>}
    </form>
  );
}

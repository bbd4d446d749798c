import type { components } from '@api-spec/schema.d.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Form, FormActions } from '../../../components/ui/form.tsx';
import { LoadingLine } from '../../../components/ui/loading-line.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { PanelSection } from '../../../components/ui/panel-section.tsx';
import { SubmitButton } from '../../../components/ui/submit-button.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { describeError } from '../../../lib/api/api-error.ts';
import { apiFieldErrors, formText } from '../../../lib/forms/form-validation.ts';
import { useValidatedSubmit } from '../../../lib/forms/validated-submit.ts';
import { PROFILE_LABELS, validateProfile } from '../account-forms.ts';
import { useMe } from '../api/get-me.ts';
import { useUpdateMe } from '../api/update-me.ts';
import { AvatarPicker } from './avatar-picker.tsx';
import { TimeZoneField } from './time-zone-field.tsx';

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
        <>
          <AvatarPicker me={me.data} />
          <ProfileForm me={me.data} />
          <TimeZoneField me={me.data} />
        </>
      )}
    </PanelSection>
  );
}

function ProfileForm({ me }: { me: Me }) {
  const update = useUpdateMe();
  const { errors, submit } = useValidatedSubmit({
    mutation: update,
    validate: (form) => validateProfile({ display_name: formText(form, 'display_name') }),
    send: (profile) => update.mutate(profile),
  });
  const fromApi = apiFieldErrors(update.error, PROFILE_LABELS);
  const failure = update.error && !fromApi.display_name ? describeError(update.error) : null;

  return (
    <Form onSubmit={submit}>
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
      <FormActions>
        <SubmitButton pending={update.isPending} pendingLabel="Saving…">
          Save
        </SubmitButton>
      </FormActions>
      {update.isSuccess && <Notice>Your display name was saved.</Notice>}
    </Form>
  );
}

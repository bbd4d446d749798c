import type { components } from '@api-spec/schema.d.ts';
import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { CopyField } from '../../../components/ui/copy-field.tsx';
import { Form, FormActions } from '../../../components/ui/form.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { SubmitButton } from '../../../components/ui/submit-button.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { ApiError, describeError } from '../../../lib/api/api-error.ts';
import { apiFieldErrors } from '../../../lib/forms/form-validation.ts';
import { useCreateInvitation } from '../api/create-invitation.ts';
import { INVITATION_LABELS, invitableRoles, validateInvitation } from '../invitation-forms.ts';
import styles from './invitations.module.css';

type WorkspaceRole = components['schemas']['WorkspaceRole'];
type NewInvitation = components['schemas']['NewInvitation'];

const ROLE_LABELS: Readonly<Record<WorkspaceRole, string>> = {
  owner: 'Owner',
  admin: 'Admin',
  member: 'Member',
  viewer: 'Viewer — reads only',
};

// The API's refusals that are about the address, shown beside it.
const EMAIL_CODES = new Set(['already_member', 'invitation_exists']);

/** Invite by e-mail and role; the accept link is shown once, to copy, next to the mail that was sent. */
export function InviteForm({ slug, callerRole }: { slug: string; callerRole: WorkspaceRole }) {
  const create = useCreateInvitation(slug);
  const roleId = useId();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<WorkspaceRole>('member');
  const [shown, setShown] = useState(false);
  const [sent, setSent] = useState<NewInvitation | null>(null);

  const checked = validateInvitation({ email, role });
  const apiErrors = apiFieldErrors(create.error, INVITATION_LABELS);
  if (create.error instanceof ApiError && EMAIL_CODES.has(create.error.code))
    apiErrors.email = create.error.detail;
  const emailError = (shown && !checked.ok ? checked.errors.email : undefined) ?? apiErrors.email;
  const failure =
    create.error && !apiErrors.email && !apiErrors.role ? describeError(create.error) : undefined;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setShown(true);
    if (!checked.ok) return;
    create.mutate(checked.data, {
      onSuccess: (invitation) => {
        setSent(invitation);
        setEmail('');
        setShown(false);
        toast.success(`Invitation sent to ${invitation.email}.`);
      },
    });
  }

  return (
    <div className={styles.invite}>
      <Form onSubmit={submit} error={failure}>
        <div className={styles.inviteFields}>
          <TextField
            label="E-mail"
            name="email"
            type="email"
            value={email}
            autoComplete="off"
            spellCheck={false}
            error={emailError}
            onChange={(event) => {
              setEmail(event.target.value);
              create.reset();
            }}
            onBlur={() => setShown(email !== '')}
          />
          <div className={styles.roleField}>
            <label htmlFor={roleId} className={styles.label}>
              Role
            </label>
            <select
              id={roleId}
              name="role"
              className={styles.select}
              value={role}
              onChange={(event) => setRole(event.target.value as WorkspaceRole)}
            >
              {invitableRoles(callerRole).map((each) => (
                <option key={each} value={each}>
                  {ROLE_LABELS[each]}
                </option>
              ))}
            </select>
          </div>
        </div>
        <FormActions>
          <SubmitButton pending={create.isPending} pendingLabel="Inviting…">
            Send invitation
          </SubmitButton>
        </FormActions>
      </Form>
      {sent && (
        <div className={styles.sent}>
          <Notice onDismiss={() => setSent(null)}>
            We e-mailed {sent.email} a link to join as {sent.role}. It works for 7 days. You can also send it
            yourself: it is shown only now.
          </Notice>
          <CopyField label="Accept link" value={sent.accept_url} testId="invitation-accept-url" />
        </div>
      )}
    </div>
  );
}

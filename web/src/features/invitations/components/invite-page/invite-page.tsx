import type { components } from '@api-spec/schema.d.ts';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { Alert } from '../../../../components/ui/alert.tsx';
import { Button, buttonClassName } from '../../../../components/ui/button.tsx';
import { FormPanel } from '../../../../components/ui/form-panel.tsx';
import { LoadError } from '../../../../components/ui/load-error.tsx';
import { LoadingLine } from '../../../../components/ui/loading-line.tsx';
import { invitationPath, paths } from '../../../../config/paths.ts';
import { ApiError, describeError } from '../../../../lib/api/api-error.ts';
import { useAcceptInvitation } from '../../api/accept-invitation.ts';
import { useInvitationPreview } from '../../api/preview-invitation.ts';
import { inviteOutcome } from './invite-outcome.ts';
import styles from './invite-page.module.css';

type InvitationPreview = components['schemas']['InvitationPreview'];
type Workspace = components['schemas']['Workspace'];
type WorkspaceRole = components['schemas']['WorkspaceRole'];

const ROLE_POWERS: Record<WorkspaceRole, string> = {
  viewer: 'read its projects, tasks and comments',
  member: 'create and edit tasks and comments',
  admin: 'manage members, invitations, labels and projects, and edit tasks',
  owner: 'do everything, including deleting the workspace',
};

interface InvitePageProps {
  token: string;
  /**
   * The signed-in person's address, to say who they are when the invitation is for someone else;
   * undefined when nobody is signed in.
   */
  signedInAs: string | undefined;
  /** The invited address as the e-mail's link carries it (its fragment), to fill in when signing up. */
  emailFromLink?: string | undefined;
  onJoined: (workspace: Workspace) => void;
  /** Signs out, so that the invited person can sign in or sign up. */
  onSwitchAccount: () => void;
}

/**
 * `/invite/:token`: who invites the visitor to which workspace, with which role; then accept, or, signed
 * out, sign up (or in) with the invited address first.
 */
export function InvitePage(props: InvitePageProps) {
  const { token, signedInAs } = props;
  const preview = useInvitationPreview(token, signedInAs);
  if (preview.isPending) {
    return (
      <FormPanel title="Invitation">
        <LoadingLine>Reading the invitation…</LoadingLine>
      </FormPanel>
    );
  }
  if (preview.isError) {
    if (preview.error instanceof ApiError && preview.error.status === 404) {
      return (
        <FormPanel title="This invitation link does not work">
          <p>
            No invitation has this link. Check that you opened the whole link from the e-mail, or ask the
            person who invited you to send a new invitation.
          </p>
        </FormPanel>
      );
    }
    return (
      <FormPanel title="Invitation">
        <LoadError
          what="The invitation"
          error={preview.error}
          onRetry={() => void preview.refetch()}
          retrying={preview.isFetching}
        />
      </FormPanel>
    );
  }
  return <InviteDetails {...props} preview={preview.data} />;
}

interface InviteDetailsProps extends InvitePageProps {
  preview: InvitationPreview;
}

function InviteDetails({
  token,
  preview,
  signedInAs,
  emailFromLink,
  onJoined,
  onSwitchAccount,
}: InviteDetailsProps) {
  const accept = useAcceptInvitation(token);
  const { workspace } = preview;
  const inviter = preview.invited_by?.display_name ?? 'Someone';
  const expires = new Date(preview.expires_at).toLocaleDateString(undefined, { dateStyle: 'medium' });
  const outcome = inviteOutcome(preview, signedInAs !== undefined);
  // Signed out, the API names no address: the one the e-mail's link carries is the visitor's own.
  const invitedAddress = preview.email ?? (outcome === 'sign_up' ? emailFromLink : undefined);
  const askFor = `Ask ${preview.invited_by?.display_name ?? 'an admin of the workspace'} for a new invitation.`;

  return (
    <FormPanel title={`Join ${workspace.name}`}>
      <title>{`Join ${workspace.name} · Tasklane`}</title>
      <p>
        <strong>{inviter}</strong>{' '}
        {invitedAddress !== undefined ? (
          <>
            invited <strong>{invitedAddress}</strong> to
          </>
        ) : outcome === 'sign_up' ? (
          'invited you to join'
        ) : (
          'sent this invitation to join'
        )}{' '}
        the workspace <strong>{workspace.name}</strong> as {article(preview.role)}{' '}
        <strong>{preview.role}</strong>.
      </p>
      <dl className={styles.facts}>
        <dt>Role</dt>
        <dd>
          {capitalised(preview.role)}: can {ROLE_POWERS[preview.role]}.
        </dd>
        <dt>{preview.status === 'expired' ? 'Expired' : 'Expires'}</dt>
        <dd>{expires}</dd>
      </dl>
      {outcome === 'accept' && (
        <>
          {workspace.require_mfa && (
            <p className="muted">
              {workspace.name} requires two-factor authentication: you need a verified authenticator app (set
              one up in your account) to accept.
            </p>
          )}
          {accept.isError && <Alert>{describeError(accept.error)}</Alert>}
          <Button
            variant="primary"
            disabled={accept.isPending}
            onClick={() => accept.mutate(undefined, { onSuccess: (workspace) => onJoined(workspace) })}
          >
            {accept.isPending ? 'Joining…' : `Accept and join ${workspace.name}`}
          </Button>
        </>
      )}
      {outcome === 'sign_up' && <SignUpToAccept token={token} email={invitedAddress} />}
      {outcome === 'already_member' && (
        <>
          <p>You are a member of {workspace.name}.</p>
          <Link to={paths.workspace} params={{ slug: workspace.slug }} className={buttonClassName('primary')}>
            Open {workspace.name}
          </Link>
        </>
      )}
      {outcome === 'used' && <Sentence>This invitation has already been used. {askFor}</Sentence>}
      {outcome === 'revoked' && <Sentence>This invitation was revoked. {askFor}</Sentence>}
      {outcome === 'expired' && (
        <Sentence>
          This invitation expired on {expires}. {askFor}
        </Sentence>
      )}
      {outcome === 'wrong_address' && (
        <>
          <Sentence>
            This invitation was sent to a different e-mail address
            {signedInAs ? ` than ${signedInAs}, the one you are signed in with` : ''}. To accept it, sign in,
            or sign up, with the address it was sent to.
          </Sentence>
          <Button variant="primary" onClick={onSwitchAccount}>
            Sign out and switch account
          </Button>
        </>
      )}
    </FormPanel>
  );
}

/**
 * Signed out: create the account with the invited address (filled in) or sign in with it; either comes
 * back to this page, which then offers to accept.
 */
function SignUpToAccept({ token, email }: { token: string; email: string | undefined }) {
  const search = { redirect: invitationPath(token), email };
  return (
    <>
      <p>
        To accept, create your Tasklane account with{' '}
        {email ? 'this address' : 'the address this invitation was sent to'}, or sign in if you have one.
      </p>
      <div className={styles.actions}>
        <Link to={paths.signUp} search={search} className={buttonClassName('primary')}>
          Create account
        </Link>
        <Link to={paths.signIn} search={search} className={buttonClassName()}>
          Sign in
        </Link>
      </div>
    </>
  );
}

/** Why the invitation cannot be accepted, and what to do, announced as the page's main message. */
function Sentence({ children }: { children: ReactNode }) {
  return <Alert>{children}</Alert>;
}

function article(role: WorkspaceRole): string {
  return role === 'admin' || role === 'owner' ? 'an' : 'a';
}

function capitalised(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

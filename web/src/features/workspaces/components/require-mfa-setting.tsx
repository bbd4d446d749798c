import type { components } from '@api-spec/schema.d.ts';
import { useId } from 'react';
import { toast } from 'sonner';
import { Alert } from '../../../components/ui/alert.tsx';
import { describeError } from '../../../lib/api/api-error.ts';
import { useUpdateWorkspace } from '../api/update-workspace.ts';
import styles from './workspace-settings.module.css';

type Workspace = components['schemas']['Workspace'];

interface RequireMfaSettingProps {
  workspace: Workspace;
  /** Whether this session has verified a second factor: only such a session may turn the rule on. */
  sessionAtAal2: boolean;
  /** Whether the caller may change the setting at all (owners and admins). */
  editable: boolean;
}

/** Require a second factor of every member; offered only from a session that has proven one itself. */
export function RequireMfaSetting({ workspace, sessionAtAal2, editable }: RequireMfaSettingProps) {
  const update = useUpdateWorkspace();
  const id = useId();
  const hintId = useId();
  // Turning it off needs no proof (the rule itself already made this session aal2).
  const mayToggle = editable && (workspace.require_mfa || sessionAtAal2);

  return (
    <div className={styles.setting}>
      <div className={styles.checkboxRow}>
        <input
          id={id}
          type="checkbox"
          className={styles.checkbox}
          checked={workspace.require_mfa}
          disabled={!mayToggle || update.isPending}
          aria-describedby={hintId}
          onChange={(event) =>
            update.mutate(
              { workspace, patch: { require_mfa: event.target.checked } },
              {
                onSuccess: (saved) =>
                  toast.success(
                    saved.require_mfa
                      ? 'Members now need two-factor authentication.'
                      : 'Two-factor is optional again.',
                  ),
              },
            )
          }
        />
        <label htmlFor={id} className={styles.checkboxLabel}>
          Require two-factor authentication
        </label>
      </div>
      <p id={hintId} className={styles.hint}>
        {!editable
          ? 'Only owners and admins change this.'
          : mayToggle
            ? 'Every member must sign in with an authenticator app to open this workspace.'
            : 'To turn this on, set up an authenticator app in your account and sign in with it: nobody can require a factor they have not proven themselves.'}
      </p>
      {update.error && <Alert>{describeError(update.error)}</Alert>}
    </div>
  );
}

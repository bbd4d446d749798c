import type { components } from '@api-spec/schema.d.ts';
import { useState } from 'react';
import { toast } from 'sonner';
import { Avatar } from '../../../components/ui/avatar.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Menu, MenuItem, MenuLabel } from '../../../components/ui/menu.tsx';
import { describeError } from '../../../lib/api/api-error.ts';
import { useUpdateMember } from '../api/update-member.ts';
import {
  assignableRoles,
  isLastOwner,
  LAST_OWNER_EXPLANATION,
  mayRemove,
  ROLE_LABELS,
  type WorkspaceRole,
} from '../member-permissions.ts';
import { RemoveMemberDialog } from './remove-member-dialog.tsx';
import styles from './member-list.module.css';

type Member = components['schemas']['Member'];

interface MemberListProps {
  slug: string;
  members: readonly Member[];
  /** The signed-in person's user id and role in this workspace. */
  callerId: string;
  callerRole: WorkspaceRole;
  /** After the caller has left the workspace. */
  onLeft: () => void;
}

const joinedFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

/** The workspace's members with role and joined date; role changes and removal where the caller may. */
export function MemberList({ slug, members, callerId, callerRole, onLeft }: MemberListProps) {
  const [removing, setRemoving] = useState<Member | null>(null);
  const caller = members.find((member) => member.user_id === callerId);
  const callerIsLastOwner = caller !== undefined && isLastOwner(members, caller);
  return (
    <>
      {callerIsLastOwner && (
        <p className={styles.note} data-testid="last-owner-note">
          You are this workspace’s only owner, so you can’t leave it or give up the owner role.{' '}
          {LAST_OWNER_EXPLANATION}
        </p>
      )}
      <ul className={styles.list} aria-label="Members">
        {members.map((member) => (
          <MemberRow
            key={member.user_id}
            slug={slug}
            member={member}
            isSelf={member.user_id === callerId}
            lastOwner={isLastOwner(members, member)}
            callerRole={callerRole}
            onRemove={() => setRemoving(member)}
          />
        ))}
      </ul>
      <RemoveMemberDialog
        slug={slug}
        member={removing}
        callerId={callerId}
        lastOwner={removing !== null && isLastOwner(members, removing)}
        onClose={() => setRemoving(null)}
        onLeft={onLeft}
      />
    </>
  );
}

interface MemberRowProps {
  slug: string;
  member: Member;
  isSelf: boolean;
  lastOwner: boolean;
  callerRole: WorkspaceRole;
  onRemove: () => void;
}

function MemberRow({ slug, member, isSelf, lastOwner, callerRole, onRemove }: MemberRowProps) {
  const update = useUpdateMember(slug);
  const roles = assignableRoles(callerRole, member.role);
  const name = member.display_name || member.email;

  function changeRole(role: WorkspaceRole) {
    if (role === member.role) return;
    update.mutate(
      { member, role },
      {
        onSuccess: () => toast.success(`${name} is now ${ROLE_LABELS[role].toLowerCase()}.`),
        onError: (error) => toast.error(`The role was not changed: ${describeError(error)}`),
      },
    );
  }

  return (
    <li className={styles.row} data-testid="member-row">
      <Avatar name={name} id={member.user_id} src={member.avatar_url} decorative />
      <div className={styles.who}>
        <span className={styles.name}>
          {name}
          {isSelf && <span className={styles.you}> (you)</span>}
        </span>
        <span className={styles.email}>{member.email}</span>
      </div>
      <span className={styles.joined}>Joined {joinedFormat.format(new Date(member.created_at))}</span>
      <div className={styles.role}>
        {roles.length > 0 ? (
          <Menu
            label={`Role of ${name}`}
            trigger={
              <button
                type="button"
                className={styles.roleTrigger}
                aria-label={`Role of ${name}: ${ROLE_LABELS[member.role]}`}
                disabled={update.isPending}
              >
                {ROLE_LABELS[member.role]}
                <span aria-hidden="true">▾</span>
              </button>
            }
          >
            {lastOwner && <MenuLabel>{LAST_OWNER_EXPLANATION}</MenuLabel>}
            {roles.map((role) =>
              lastOwner && role !== 'owner' ? null : (
                <MenuItem key={role} onSelect={() => changeRole(role)}>
                  {ROLE_LABELS[role]}
                  {role === member.role && <span aria-hidden="true"> ✓</span>}
                </MenuItem>
              ),
            )}
          </Menu>
        ) : (
          <span className={styles.roleText}>{ROLE_LABELS[member.role]}</span>
        )}
      </div>
      <div className={styles.actions}>
        {mayRemove(callerRole, member.role, isSelf) && (
          <Button onClick={onRemove} aria-label={isSelf ? 'Leave workspace' : `Remove ${name}`}>
            {isSelf ? 'Leave' : 'Remove'}
          </Button>
        )}
      </div>
    </li>
  );
}

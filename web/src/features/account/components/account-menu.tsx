import { useNavigate } from '@tanstack/react-router';
import { Avatar } from '../../../components/ui/avatar.tsx';
import { Menu, MenuItem, MenuLabel, MenuSeparator } from '../../../components/ui/menu.tsx';
import { VisuallyHidden } from '../../../components/ui/visually-hidden.tsx';
import { paths } from '../../../config/paths.ts';
import { useMe } from '../api/get-me.ts';
import styles from './account-menu.module.css';

interface AccountMenuProps {
  /** The session's address, shown until the profile has loaded. */
  email: string;
  onSignOut: () => void;
}

/** The header's account menu: who is signed in, the account page, and signing out. */
export function AccountMenu({ email, onSignOut }: AccountMenuProps) {
  const navigate = useNavigate();
  const me = useMe();
  const name = me.data?.display_name || email;
  return (
    <Menu
      label="Account"
      trigger={
        // Named by what it shows (WCAG 2.5.3, label in name): "Account menu: Maya Patel", the initials left
        // out. On a phone, where the name is not shown, "Account menu".
        <button type="button" className={styles.trigger}>
          <Avatar name={name} id={me.data?.id ?? email} src={me.data?.avatar_url} decorative />
          <VisuallyHidden>Account menu: </VisuallyHidden>
          <span className={styles.name}>{name}</span>
        </button>
      }
    >
      <MenuLabel>
        <span className={styles.who}>{name}</span>
        <span className={styles.email} data-testid="signed-in-as">
          {email}
        </span>
      </MenuLabel>
      <MenuSeparator />
      <MenuItem onSelect={() => void navigate({ to: paths.account })}>Account</MenuItem>
      <MenuItem onSelect={onSignOut}>Sign out</MenuItem>
    </Menu>
  );
}

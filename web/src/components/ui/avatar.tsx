import { useState } from 'react';
import { classNames } from './class-names.ts';
import styles from './avatar.module.css';

interface AvatarProps {
  /** The person's display name (or e-mail): its initials stand in for a picture. */
  name: string;
  /** A stable id, so a person keeps their colour wherever they appear. */
  id: string;
  /** The person's picture (a signed URL, `avatar_url`); the initials stand in without one or if it fails. */
  src?: string | null;
  size?: 'small' | 'medium' | 'large';
  /** Decorative when the name is written beside it; otherwise the name is its accessible label. */
  decorative?: boolean;
  className?: string;
}

/** Up to two initials: "Maya Lopez" → "ML", "maya@example.com" → "MA". */
export function initialsOf(name: string): string {
  const [first = '', ...rest] = name
    .replace(/@.*/, '')
    .split(/[\s._-]+/)
    .filter(Boolean);
  const last = rest.at(-1);
  if (last === undefined) return first.slice(0, 2).toUpperCase() || '?';
  return (first.charAt(0) + last.charAt(0)).toUpperCase();
}

const HUES = 12;

/** One of a few hues, picked from the id, so the same person has the same colour everywhere. */
export function hueOf(id: string): number {
  let hash = 0;
  for (const char of id) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return (hash % HUES) * (360 / HUES);
}

export function Avatar({ name, id, src, size = 'small', decorative = false, className }: AvatarProps) {
  // Remembers which address failed, so a new one (a fresh signed URL, a new picture) is tried again.
  const [failed, setFailed] = useState<string | null>(null);
  const picture = src && src !== failed ? src : null;
  return (
    <span
      className={classNames(styles.avatar, styles[size], className)}
      style={{ '--avatar-hue': hueOf(id) } as React.CSSProperties}
      {...(decorative ? { 'aria-hidden': true } : { role: 'img', 'aria-label': name, title: name })}
    >
      {picture ? (
        <img className={styles.picture} src={picture} alt="" onError={() => setFailed(picture)} />
      ) : (
        initialsOf(name)
      )}
    </span>
  );
}

/** The place of an avatar where there is no person: the system, a former member, nobody assigned. */
export function EmptyAvatar({ size = 'small' }: { size?: AvatarProps['size'] }) {
  return <span className={classNames(styles.empty, styles[size])} aria-hidden="true" />;
}

import type { PresenceMember } from '../../../lib/realtime/presence.ts';
import { BoardPresence } from './board-presence.tsx';
import { ConnectionStatus } from './connection-status.tsx';

interface BoardLiveProps {
  projectKey: string;
  meId: string | undefined;
  members: readonly PresenceMember[];
}

/** The board's live parts: the connection's state and which members have the board open. */
export function BoardLive({ projectKey, meId, members }: BoardLiveProps) {
  return (
    <>
      <ConnectionStatus />
      <BoardPresence projectKey={projectKey} meId={meId} members={members} />
    </>
  );
}

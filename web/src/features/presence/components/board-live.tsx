import { BoardPresence } from './board-presence.tsx';
import { ConnectionStatus } from './connection-status.tsx';

/** The board's live parts: the connection's state and who else has the board open. */
export function BoardLive({ projectKey, meId }: { projectKey: string; meId: string | undefined }) {
  return (
    <>
      <ConnectionStatus />
      <BoardPresence projectKey={projectKey} meId={meId} />
    </>
  );
}

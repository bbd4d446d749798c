import type { LiveMessage } from './live-message.ts';
import { liveStore } from './live-store.ts';
import { createPacer } from './presence-pacer.ts';
import { loadRealtimeClient, type RealtimeChannel } from './realtime-client.ts';
import { createReopenDelay } from './reopen-delay.ts';
import { onReplicationReady, REPLICATION_READY_CONFIG } from './replication-ready.ts';

export interface WorkspaceChannelOptions {
  /** The workspace's id (its UUID, not its slug): the channel is `workspace:<id>`. */
  workspaceId: string;
  /** The signed-in person: their user id is their presence key. */
  me: { id: string };
  /** Each message of the channel (the change feed moved), in the order it arrives. */
  onMessage: (message: LiveMessage) => void;
  /**
   * After every join and rejoin, and again when the replication behind the join is ready: what was missed
   * while not joined (or committed before the channel could carry it) must be read now.
   */
  onJoined: () => void;
}

/**
 * Joins the workspace's private channel as the signed-in person and keeps it joined: realtime-js rejoins
 * after a dropped socket, supabase-js hands it each refreshed access token; this reopens the channel
 * after the server closed it (an expired token, the project's message rate: after a pause that grows while
 * it keeps being closed, reopen-delay.ts) or the browser came back online, and tells the others where this
 * tab is.
 * Returns how to leave (on a change of workspace or person, or sign-out).
 */
export function connectWorkspace(options: WorkspaceChannelOptions): () => void {
  let channel: RealtimeChannel | null = null;
  let stopped = false;
  let joined = false;
  let everJoined = false;
  let reopenTimer: ReturnType<typeof setTimeout> | undefined;
  const reopenDelay = createReopenDelay();

  const lost = () => {
    joined = false;
    liveStore.setConnection(everJoined ? 'reconnecting' : 'connecting');
  };

  // Where this tab is, told at most every 7 s (hosted's presence limit), the latest place each time.
  // Only the place: who is here is the key, and their name is the member list's (presence.ts).
  const presence = createPacer(() => {
    if (channel && joined) void channel.track({ ...liveStore.get().place });
  });

  const open = async () => {
    // The messages' parser (zod) comes with the client, after the screen is shown (decision 0028).
    const [supabase, { parseLiveMessage }] = await Promise.all([
      loadRealtimeClient(),
      import('./live-message.ts'),
    ]);
    // The join carries the session's token (private channels are authorized by it), not the anon key.
    await supabase.realtime.setAuth();
    if (stopped || channel) return;
    const opened = supabase.channel(`workspace:${options.workspaceId}`, {
      config: { private: true, presence: { key: options.me.id }, broadcast: REPLICATION_READY_CONFIG },
    });
    channel = opened;
    onReplicationReady(opened, () => {
      if (channel === opened && joined) options.onJoined();
    });
    opened
      .on('broadcast', { event: '*' }, (message: { payload?: unknown }) => {
        const parsed = parseLiveMessage(message.payload);
        if (parsed) options.onMessage(parsed);
      })
      .on('presence', { event: 'sync' }, () => liveStore.setPresence(opened.presenceState()))
      .subscribe((status) => {
        if (channel !== opened) return;
        if (status === 'SUBSCRIBED') {
          joined = true;
          everJoined = true;
          reopenDelay.joined();
          liveStore.setConnection('live');
          presence.reset();
          presence.request();
          options.onJoined();
          return;
        }
        lost();
        // CHANNEL_ERROR and TIMED_OUT rejoin by themselves; a closed channel does not.
        if (status === 'CLOSED') reopenSoon();
      });
  };

  const close = async () => {
    const closing = channel;
    channel = null;
    lost();
    liveStore.setPresence({});
    if (closing) await (await loadRealtimeClient()).removeChannel(closing);
  };

  const reopenSoon = () => {
    clearTimeout(reopenTimer);
    reopenTimer = setTimeout(() => {
      void close().then(() => {
        if (!stopped && navigator.onLine) void open();
      });
    }, reopenDelay.next());
  };

  // The browser knows first when the network goes: leave at once rather than wait for a heartbeat to fail,
  // and join again (then catch up) when it is back.
  const onOffline = () => {
    clearTimeout(reopenTimer);
    void close();
  };
  const onOnline = () => {
    if (!channel && !stopped) void open();
  };
  window.addEventListener('offline', onOffline);
  window.addEventListener('online', onOnline);
  let place = liveStore.get().place;
  const unsubscribePlace = liveStore.subscribe(() => {
    if (liveStore.get().place === place) return;
    place = liveStore.get().place;
    if (joined) presence.request();
  });

  liveStore.reset();
  if (navigator.onLine) void open();
  return () => {
    stopped = true;
    presence.stop();
    clearTimeout(reopenTimer);
    window.removeEventListener('offline', onOffline);
    window.removeEventListener('online', onOnline);
    unsubscribePlace();
    void close();
  };
}

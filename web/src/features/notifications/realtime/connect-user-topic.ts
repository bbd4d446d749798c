import { loadRealtimeClient, type RealtimeChannel } from '../../../lib/realtime/realtime-client.ts';

export interface UserTopicOptions {
  /** The signed-in person's id: the topic is `user:<id>`, which only they may join. */
  userId: string;
  /** Their notifications changed (the message says nothing more), or a (re)join may have missed it. */
  onChange: () => void;
}

/** After the server closed the channel (an expired token, say), join again after this pause. */
const REOPEN_DELAY_MS = 1_000;

/**
 * Joins the person's private topic and keeps it joined, as the workspace channel does
 * (lib/realtime/workspace-channel.ts): realtime-js rejoins after a dropped socket; this reopens after the
 * server closed the channel or the browser came back online. Returns how to leave.
 */
export function connectUserTopic({ userId, onChange }: UserTopicOptions): () => void {
  let channel: RealtimeChannel | null = null;
  let stopped = false;
  let reopenTimer: ReturnType<typeof setTimeout> | undefined;

  const open = async () => {
    const supabase = await loadRealtimeClient();
    // Private topics are authorized by the session's token, not the anon key.
    await supabase.realtime.setAuth();
    if (stopped || channel) return;
    const opened = supabase.channel(`user:${userId}`, { config: { private: true } });
    channel = opened;
    opened
      .on('broadcast', { event: 'notifications' }, () => onChange())
      .subscribe((status) => {
        if (channel !== opened) return;
        if (status === 'SUBSCRIBED') onChange();
        else if (status === 'CLOSED') reopenSoon();
      });
  };

  const close = async () => {
    const closing = channel;
    channel = null;
    if (closing) await (await loadRealtimeClient()).removeChannel(closing);
  };

  const reopenSoon = () => {
    clearTimeout(reopenTimer);
    reopenTimer = setTimeout(() => {
      void close().then(() => {
        if (!stopped && navigator.onLine) void open();
      });
    }, REOPEN_DELAY_MS);
  };

  const onOffline = () => {
    clearTimeout(reopenTimer);
    void close();
  };
  const onOnline = () => {
    if (!channel && !stopped) void open();
  };
  window.addEventListener('offline', onOffline);
  window.addEventListener('online', onOnline);
  if (navigator.onLine) void open();
  return () => {
    stopped = true;
    clearTimeout(reopenTimer);
    window.removeEventListener('offline', onOffline);
    window.removeEventListener('online', onOnline);
    void close();
  };
}

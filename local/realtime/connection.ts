import type { WebSocket } from 'ws';
import { replyTo, type Channel, type Connection } from './channel.ts';
import { failChannel, closeChannel, removeChannel } from './channel-lifecycle.ts';
import { refreshAccessToken } from './channel-token.ts';
import { handleBroadcast } from './broadcast.ts';
import type { RealtimeContext } from './context.ts';
import { joinChannel } from './join.ts';
import { handlePresence } from './presence.ts';
import { decodeFrame, encodeMessage, type PhoenixMessage, type Vsn } from './wire.ts';

type ChannelHandler = (context: RealtimeContext, channel: Channel, message: PhoenixMessage) => Promise<void>;

const CHANNEL_EVENTS: Record<string, ChannelHandler> = {
  broadcast: handleBroadcast,
  presence: handlePresence,
  access_token: refreshAccessToken,
  phx_leave: leave,
};

/**
 * One client socket: heartbeats are answered at once; everything else is handled in order per topic (a
 * Phoenix channel is one process), so a slow authorization on one channel holds up no other.
 */
export function openConnection(
  context: RealtimeContext,
  socket: WebSocket,
  options: { vsn: Vsn; socketToken: string; headers: Record<string, string> },
): void {
  const connection: Connection = {
    ...options,
    channels: new Map(),
    send: (message) => sendFrame(socket, encodeMessage(options.vsn, message)),
    sendFrame: (frame) => sendFrame(socket, frame),
  };
  const queues = new Map<string, Promise<void>>();
  let idle = idleTimer(context, socket);
  socket.on('message', (data: Buffer, isBinary: boolean) => {
    clearTimeout(idle);
    idle = idleTimer(context, socket);
    const message = decodeFrame(options.vsn, data, isBinary);
    if (!message) return;
    if (message.topic === 'phoenix') return heartbeat(connection, message);
    enqueue(queues, message.topic, () => route(context, connection, message));
  });
  socket.on('close', () => {
    clearTimeout(idle);
    for (const channel of [...connection.channels.values()]) removeChannel(context, channel);
  });
  socket.on('error', (error) => context.log(`a realtime socket failed: ${error.message}`));

  function enqueue(waiting: Map<string, Promise<void>>, topic: string, task: () => Promise<void>): void {
    const next = (waiting.get(topic) ?? Promise.resolve()).then(task).catch((error: unknown) => {
      context.log(`a channel of ${topic} failed: ${error instanceof Error ? error.message : String(error)}`);
      const channel = connection.channels.get(topic);
      if (channel) failChannel(context, channel);
    });
    waiting.set(topic, next);
    void next.then(() => waiting.get(topic) === next && waiting.delete(topic));
  }
}

async function route(
  context: RealtimeContext,
  connection: Connection,
  message: PhoenixMessage,
): Promise<void> {
  if (message.event === 'phx_join') return joinChannel(context, connection, message);
  const channel = connection.channels.get(message.topic);
  if (!channel) return answerUnjoined(connection, message);
  if (channel.joinRef !== message.join_ref) {
    return replyTo(connection, message, 'error', { reason: 'unmatched topic' });
  }
  await CHANNEL_EVENTS[message.event]?.(context, channel, message);
}

/**
 * A push to a topic this socket has not joined: a leave is answered ok (there is nothing to leave), as
 * Phoenix's socket does; anything else is an unmatched topic.
 */
function answerUnjoined(connection: Connection, message: PhoenixMessage): void {
  if (message.event === 'phx_leave') return replyTo(connection, message, 'ok', {});
  replyTo(connection, message, 'error', { reason: 'unmatched topic' });
}

function heartbeat(connection: Connection, message: PhoenixMessage): void {
  if (message.event === 'heartbeat') replyTo(connection, message, 'ok', {});
}

/** phx_leave: an ok reply, then phx_close. */
async function leave(context: RealtimeContext, channel: Channel, message: PhoenixMessage): Promise<void> {
  replyTo(channel.connection, message, 'ok', {});
  closeChannel(context, channel);
}

function sendFrame(socket: WebSocket, frame: string | Buffer | null): void {
  if (frame !== null && socket.readyState === socket.OPEN) socket.send(frame);
}

/** Phoenix closes a socket that has sent nothing, not even a heartbeat, for the idle timeout. */
function idleTimer(context: RealtimeContext, socket: WebSocket): NodeJS.Timeout {
  const timer = setTimeout(() => socket.close(1000, 'idle timeout'), context.settings.idleTimeoutMs);
  timer.unref();
  return timer;
}

import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';

/**
 * The caller's IP address as GoTrue sees it behind Supabase's gateway: the first entry of
 * X-Forwarded-For when it is an IP address, else the socket's peer address. The stand-in listens on
 * loopback only, so trusting the header costs nothing and lets tests play several clients.
 */
export function clientAddress(req: IncomingMessage): string {
  const forwarded = req.headers['x-forwarded-for'];
  const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim() ?? '';
  if (isIP(first)) return first;
  return req.socket.remoteAddress ?? '';
}

/**
 * What the stand-in's gateway and mailbox trust of a request (the first security review): the gateway appends
 * the address it saw to X-Forwarded-For, as Supabase's does, so a client cannot pick its per-IP bucket; and
 * both answer only requests addressed to a loopback host, so a DNS-rebound page cannot read them.
 */
import { request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, test } from 'vitest';
import { useStandIn } from '../support/stand-in-auth.ts';

const IP_LIMIT = 5;

interface RawAnswer {
  status: number;
  body: string;
}

/** A GET with a Host header of our choosing, which fetch forbids setting. */
function getWithHost(
  port: number,
  path: string,
  host: string,
  headers: Record<string, string> = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const call = request({ host: '127.0.0.1', port, path, headers: { ...headers, host } }, (answer) => {
      let body = '';
      answer.setEncoding('utf8');
      answer.on('data', (chunk: string) => (body += chunk));
      answer.on('end', () => resolve({ status: answer.statusCode ?? 0, body }));
    });
    call.once('error', reject);
    call.end();
  });
}

const randomAddress = () => Array.from({ length: 4 }, () => Math.floor(Math.random() * 254) + 1).join('.');

describe('the stand-in gateway and mailbox', () => {
  const standIn = useStandIn({ RATE_LIMIT_IP_PER_MINUTE: String(IP_LIMIT) });

  /** Rate-limit windows are fixed minutes of the database's clock: start in one with room left. */
  async function awaitRoomInWindow(seconds: number): Promise<void> {
    const { rows } = await standIn.withDatabase((db) =>
      db.query<{ left: string }>('select 60 - extract(epoch from now())::numeric % 60 as left'),
    );
    const left = Number(rows[0]?.left ?? 60);
    if (left < seconds) await sleep((left + 0.2) * 1000);
  }

  test(
    'put every request from one client in one per-IP bucket, whatever X-Forwarded-For it forges',
    { timeout: 60_000 },
    async () => {
      await awaitRoomInWindow(15);
      const statuses: number[] = [];
      for (let call = 0; call < 3 * IP_LIMIT; call += 1) {
        const forged = Array.from({ length: (call % 3) + 1 }, randomAddress).join(', ');
        const response = await fetch(`${standIn.process.apiUrl}/functions/v1/api/v1/health`, {
          headers: { 'x-forwarded-for': forged },
        });
        statuses.push(response.status);
        if (response.status === 429)
          expect(response.headers.get('ratelimit-policy')).toBe(`"ip";q=${IP_LIMIT};w=60`);
      }
      // Anything else of the stand-in's that called the API this minute used the same bucket, so fewer
      // may pass; none may pass once one was refused.
      const firstRefused = statuses.indexOf(429);
      expect(firstRefused).toBeGreaterThanOrEqual(0);
      expect(firstRefused).toBeLessThanOrEqual(IP_LIMIT);
      expect(statuses.slice(0, firstRefused)).toEqual(Array<number>(firstRefused).fill(200));
      expect(statuses.slice(firstRefused)).toEqual(Array<number>(statuses.length - firstRefused).fill(429));
    },
  );

  test.each([
    ['the gateway', 'api', '/functions/v1/api/v1/meta/limits'],
    ['the gateway', 'api', '/auth/v1/settings'],
    ['the mailbox', 'mailbox', '/api/messages'],
    ['the mailbox', 'mailbox', '/'],
  ] as const)('%s (port %s) answers GET %s with 421 for any other Host', async (_name, server, path) => {
    const port = standIn.process.ports[server];
    for (const host of [
      'rebound.example',
      `rebound.example:${port}`,
      `127.0.0.2:${port}`,
      'localhost.evil',
    ]) {
      const answer = await getWithHost(port, path, host);
      expect(answer.status, host).toBe(421);
      expect(answer.body, host).not.toContain('@');
    }
  });

  // (Not the API itself: the test above has spent this minute's per-IP budget of 127.0.0.1.)
  test.each([
    ['the gateway', 'api', '/auth/v1/health'],
    ['the mailbox', 'mailbox', '/api/messages'],
  ] as const)(
    '%s (port %s) answers GET %s for a loopback Host, with or without a port',
    async (_name, server, path) => {
      const port = standIn.process.ports[server];
      for (const host of [
        '127.0.0.1',
        `127.0.0.1:${port}`,
        'localhost',
        `LocalHost:${port}`,
        '[::1]',
        `[::1]:${port}`,
      ]) {
        const answer = await getWithHost(port, path, host, { apikey: standIn.keys.anonKey });
        expect(answer.status, host).toBe(200);
      }
    },
  );
});

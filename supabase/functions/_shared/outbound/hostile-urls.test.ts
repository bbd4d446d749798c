/**
 * Every URL here must be refused twice: when a webhook is saved (its text, then its resolved addresses)
 * and when a delivery is sent, where the connector must not have been asked to connect at all. Hosts
 * resolve through a fake resolver and connections go to a fake connector: no test dials out.
 */
import { describe, expect, it } from 'vitest';
import { fakeResolver, recordingConnector } from '../../../../tests/support/fake-network.ts';
import { sendChecked } from './checked-request.ts';
import { checkWebhookDestination } from './destination.ts';

const PUBLIC = '93.184.216.34';

const ANSWERS = {
  'private.example.com': ['10.0.0.5'],
  'metadata.example.com': ['169.254.169.254'],
  'loopback.example.com': ['127.0.0.1'],
  'mixed.example.com': [PUBLIC, '192.168.0.10'],
  'mixed-v6.example.com': ['2606:2800:220:1:248:1893:25c8:1946', '::1'],
  'mapped.example.com': ['::ffff:10.0.0.1'],
  'ula.example.com': ['fd00::1'],
  'link-local-v6.example.com': ['fe80::1'],
  'zone.example.com': ['fe80::1%eth0'],
  'octal.example.com': ['0177.0.0.1'],
  'garbage.example.com': ['not-an-address'],
  'empty.example.com': [],
  'failing.example.com': new Error('SERVFAIL'),
  'cgnat.example.com': ['100.64.0.1'],
  'nat64.example.com': ['64:ff9b::a9fe:a9fe'],
  '127.0.0.1.nip.io': ['127.0.0.1'],
  'six-to-four.example.com': ['2002:a00:1::'],
  'broadcast.example.com': ['255.255.255.255'],
  'unspecified.example.com': ['0.0.0.0'],
  // Reached only by the URLs that must be refused before resolving.
  'example.com': [PUBLIC],
};

const HOSTILE_URLS = [
  // Schemes other than https
  'http://example.com/hook',
  'http://127.0.0.1/hook',
  'file:///etc/passwd',
  'gopher://127.0.0.1:6379/_INFO',
  'dict://127.0.0.1:11211/stats',
  'ftp://example.com/hook',
  'ws://example.com/hook',
  'wss://example.com/hook',
  'javascript:alert(1)',
  'data:text/plain,hello',
  // Loopback, in every form WHATWG URL turns into 127.0.0.1
  'https://127.0.0.1/hook',
  'https://2130706433/',
  'https://0x7f000001/',
  'https://0x7f.1/',
  'https://0177.0.0.1/',
  'https://017700000001/',
  'https://0x7f.0x0.0x0.0x1/',
  'https://127.1/',
  'https://%31%32%37.0.0.1/',
  'https://127。0。0。1/',
  'https://①②⑦.0.0.1/',
  // IPv6 literals
  'https://[::1]/',
  'https://[0:0:0:0:0:0:0:1]:8443/',
  'https://[::ffff:127.0.0.1]/',
  'https://[::ffff:7f00:1]/',
  'https://[0:0:0:0:0:ffff:a00:1]/',
  'https://[::127.0.0.1]/',
  'https://[::]/',
  'https://[fe80::1]/',
  'https://[fe80::1%25eth0]/',
  'https://[fd00:ec2::254]/latest/meta-data/',
  'https://[64:ff9b::7f00:1]/',
  'https://[64:ff9b:1::a00:1]/',
  'https://[2002:7f00:1::]/',
  'https://[2001::1]/',
  'https://[2001:db8::1]/',
  'https://[100::1]/',
  'https://[fec0::1]/',
  'https://[ff02::1]/',
  // IPv4 ranges
  'https://169.254.169.254/latest/meta-data/',
  'https://100.64.0.1/',
  'https://192.168.1.1/',
  'https://10.0.0.1/',
  'https://172.16.0.1/',
  'https://0.0.0.0/',
  'https://0/',
  'https://224.0.0.1/',
  'https://255.255.255.255/',
  'https://198.18.0.1/',
  'https://192.0.0.8/',
  'https://240.0.0.1/',
  // Names that only mean something inside a network
  'https://localhost/',
  'https://LOCALHOST./',
  'https://foo.localhost/',
  'https://metadata.google.internal/computeMetadata/v1/',
  'https://printer.local/',
  'https://router.home.arpa/',
  'https://intranet/',
  // Credentials, and URLs parsers disagree about
  'https://user:pw@example.com/',
  'https://example.com@127.0.0.1/',
  'https://example.com\\@127.0.0.1/',
  ' https://example.com/',
  'https://exa mple.com/',
  `https://example.com/${'a'.repeat(2048)}`,
  'not a url',
  // Names whose DNS answers are not (all) public
  'https://private.example.com/',
  'https://metadata.example.com/',
  'https://loopback.example.com/',
  'https://mixed.example.com/',
  'https://mixed-v6.example.com/',
  'https://mapped.example.com/',
  'https://ula.example.com/',
  'https://link-local-v6.example.com/',
  'https://zone.example.com/',
  'https://octal.example.com/',
  'https://garbage.example.com/',
  'https://empty.example.com/',
  'https://failing.example.com/',
  'https://cgnat.example.com/',
  'https://nat64.example.com/',
  'https://127.0.0.1.nip.io/',
  'https://six-to-four.example.com/',
  'https://broadcast.example.com/',
  'https://unspecified.example.com/',
];

const send = (url: string, deps: { resolve: ReturnType<typeof fakeResolver>['resolve'] }) => {
  const connector = recordingConnector();
  const result = sendChecked(
    { url, method: 'POST', headers: {}, body: '{}' },
    {
      ...deps,
      connect: connector.connect,
      allowLoopbackHttp: false,
      timeoutMs: 1000,
      maxResponseBytes: 1024,
    },
  );
  return { result, attempts: connector.attempts };
};

describe('hostile webhook URLs', () => {
  it('are many', () => {
    expect(new Set(HOSTILE_URLS).size).toBeGreaterThanOrEqual(40);
  });

  it.each(HOSTILE_URLS)('%j is refused when saved', async (url) => {
    const { resolve } = fakeResolver(ANSWERS);
    const check = await checkWebhookDestination(url, { resolve, allowLoopbackHttp: false });
    expect(check).toEqual({ ok: false, reason: expect.any(String) });
  });

  it.each(HOSTILE_URLS)('%j is refused when sent, and never connected to', async (url) => {
    const { resolve } = fakeResolver(ANSWERS);
    const { result, attempts } = send(url, { resolve });
    expect(await result).toEqual({ kind: 'refused', reason: expect.any(String) });
    expect(attempts).toEqual([]);
  });

  it('says why, in a sentence an API error can carry', async () => {
    const { resolve } = fakeResolver(ANSWERS);
    const reasonOf = async (url: string) => {
      const check = await checkWebhookDestination(url, { resolve, allowLoopbackHttp: false });
      return check.ok ? null : check.reason;
    };
    expect(await reasonOf('http://example.com/')).toBe('must use https');
    expect(await reasonOf('https://10.0.0.1/')).toBe('points at an address that is not public (10.0.0.0/8)');
    expect(await reasonOf('https://mixed.example.com/')).toBe(
      'resolves to an address that is not public (192.168.0.0/16)',
    );
    expect(await reasonOf('https://empty.example.com/')).toBe('has a host that resolves to no address');
    expect(await reasonOf('https://failing.example.com/')).toBe('has a host that could not be resolved');
  });
});

describe('DNS rebinding', () => {
  it('is refused at send time when the host resolved to a public address at save time', async () => {
    const { resolve, asked } = fakeResolver({
      'rebind.example.com': { sequence: [[PUBLIC], ['127.0.0.1']] },
    });
    const url = 'https://rebind.example.com/hook';
    expect(await checkWebhookDestination(url, { resolve, allowLoopbackHttp: false })).toEqual({
      ok: true,
      addresses: [PUBLIC],
    });
    const { result, attempts } = send(url, { resolve });
    expect(await result).toEqual({
      kind: 'refused',
      reason: 'resolves to an address that is not public (127.0.0.0/8)',
    });
    expect(attempts).toEqual([]);
    expect(asked).toEqual(['rebind.example.com', 'rebind.example.com']);
  });
});

describe('with loopback http allowed, for the local stand-in', () => {
  const ALLOWED = { allowLoopbackHttp: true };

  it.each([
    'http://10.0.0.1/',
    'https://10.0.0.1/',
    'http://example.com/',
    'https://private.example.com/',
    'https://mixed.example.com/',
    'https://169.254.169.254/',
    'http://[::ffff:127.0.0.1]/',
    'http://foo.localhost/',
  ])('still refuses %j', async (url) => {
    const { resolve } = fakeResolver(ANSWERS);
    expect(await checkWebhookDestination(url, { resolve, ...ALLOWED })).toMatchObject({ ok: false });
  });

  it.each([
    ['http://127.0.0.1:54321/hook', ['127.0.0.1']],
    ['http://[::1]:54321/hook', ['::1']],
    ['http://localhost:54321/hook', ['127.0.0.1', '::1']],
    ['https://localhost/hook', ['127.0.0.1', '::1']],
  ])('lets %j reach loopback', async (url, addresses) => {
    const { resolve, asked } = fakeResolver(ANSWERS);
    expect(await checkWebhookDestination(url, { resolve, ...ALLOWED })).toEqual({ ok: true, addresses });
    expect(asked).toEqual([]);
  });
});

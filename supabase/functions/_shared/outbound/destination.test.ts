import { describe, expect, it } from 'vitest';
import { fakeResolver } from '../../../../tests/support/fake-network.ts';
import { resolveDestination } from './destination.ts';

const STRICT = { allowLoopbackHttp: false };

describe('resolveDestination', () => {
  it('answers every address of a host whose addresses are all public', async () => {
    const { resolve, asked } = fakeResolver({
      'hooks.example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
    });
    expect(await resolveDestination(new URL('https://hooks.example.com/x'), { resolve, ...STRICT })).toEqual({
      ok: true,
      addresses: ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
    });
    expect(asked).toEqual(['hooks.example.com']);
  });

  it('does not resolve a literal address, and answers it without brackets', async () => {
    const { resolve, asked } = fakeResolver({});
    expect(await resolveDestination(new URL('https://93.184.216.34/'), { resolve, ...STRICT })).toEqual({
      ok: true,
      addresses: ['93.184.216.34'],
    });
    expect(await resolveDestination(new URL('https://[2606:2800::1]/'), { resolve, ...STRICT })).toEqual({
      ok: true,
      addresses: ['2606:2800::1'],
    });
    expect(asked).toEqual([]);
  });

  it('refuses the whole host when one address is not public, wherever it is in the answer', async () => {
    for (const addresses of [
      ['93.184.216.34', '10.1.2.3'],
      ['10.1.2.3', '93.184.216.34'],
    ]) {
      const { resolve } = fakeResolver({ 'hooks.example.com': addresses });
      expect(await resolveDestination(new URL('https://hooks.example.com/'), { resolve, ...STRICT })).toEqual(
        {
          ok: false,
          reason: 'resolves to an address that is not public (10.0.0.0/8)',
        },
      );
    }
  });

  it('with loopback allowed, lets loopback through and nothing else that is not public', async () => {
    const { resolve } = fakeResolver({
      'dev.example.com': ['127.0.0.1'],
      'lan.example.com': ['192.168.0.2'],
    });
    const allowed = { resolve, allowLoopbackHttp: true };
    expect(await resolveDestination(new URL('https://dev.example.com/'), allowed)).toEqual({
      ok: true,
      addresses: ['127.0.0.1'],
    });
    expect(await resolveDestination(new URL('https://lan.example.com/'), allowed)).toMatchObject({
      ok: false,
    });
    expect(
      await resolveDestination(new URL('https://dev.example.com/'), { resolve, ...STRICT }),
    ).toMatchObject({
      ok: false,
    });
  });
});

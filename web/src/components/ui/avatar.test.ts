import { describe, expect, it } from 'vitest';
import { hueOf, initialsOf } from './avatar.tsx';

describe('initialsOf', () => {
  it('takes the first and last words of a name, or the start of an e-mail', () => {
    expect(initialsOf('Maya Lopez')).toBe('ML');
    expect(initialsOf('Ana María de la Cruz')).toBe('AC');
    expect(initialsOf('maya@example.com')).toBe('MA');
    expect(initialsOf('jo.smith@example.com')).toBe('JS');
    expect(initialsOf('')).toBe('?');
  });
});

describe('hueOf', () => {
  it('gives a person the same hue every time, one of twelve', () => {
    const id = '7d0f1f8e-2f5a-4c3e-9d61-2b1f0c1d7a10';
    expect(hueOf(id)).toBe(hueOf(id));
    expect(hueOf(id) % 30).toBe(0);
    expect(hueOf(id)).toBeLessThan(360);
  });
});

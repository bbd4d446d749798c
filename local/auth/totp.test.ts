import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { newTotpSecret, totpCodeIsValid, totpQrCodeSvg, totpUri } from './totp.ts';

describe('TOTP', () => {
  it('makes 32-character base32 secrets and accepts codes one step either side of now', () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const totp = new TOTP({ secret: Secret.fromBase32(secret) });
    for (const offset of [-30_000, 0, 30_000]) {
      expect(totpCodeIsValid(secret, totp.generate({ timestamp: Date.now() + offset }))).toBe(true);
    }
    // Three steps back is outside the window (a one-in-a-million chance of sharing a code with it aside).
    expect(totpCodeIsValid(secret, totp.generate({ timestamp: Date.now() - 90_000 }))).toBe(false);
    expect(totpCodeIsValid(secret, '12345')).toBe(false);
  });

  it('writes the key URI as GoTrue (pquerna/otp) does', () => {
    expect(totpUri('localhost:5173', 'ada+mfa@example.com', 'ABC')).toBe(
      'otpauth://totp/localhost:5173:ada+mfa@example.com?algorithm=SHA1&digits=6&issuer=localhost%3A5173&period=30&secret=ABC',
    );
    expect(totpUri('Task lane', 'a@b.co', 'ABC')).toContain('otpauth://totp/Task%20lane:a@b.co?');
    expect(totpUri('Task lane', 'a@b.co', 'ABC')).toContain('&issuer=Task%20lane&');
  });

  it('renders the QR code as SVG markup without `#`, which would break the data URI auth-js builds', async () => {
    const svg = await totpQrCodeSvg('otpauth://totp/x:y?secret=ABC');
    expect(svg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    expect(svg).not.toContain('#');
  });
});

import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';

/** GoTrue's TOTP parameters (pquerna/otp defaults): SHA1, 6 digits, 30 s steps, ±1 step accepted. */
const ALGORITHM = 'SHA1';
const DIGITS = 6;
const PERIOD_SECONDS = 30;
const WINDOW_STEPS = 1;
/** 20 random bytes: 32 base32 characters, as pquerna/otp generates. */
const SECRET_BYTES = 20;
const QR_CODE_WIDTH = 180;

export function newTotpSecret(): string {
  return new Secret({ size: SECRET_BYTES }).base32;
}

/** The key URI GoTrue answers: `otpauth://totp/<issuer>:<account>?algorithm=…&digits=…&issuer=…&period=…&secret=…`. */
export function totpUri(issuer: string, accountName: string, secret: string): string {
  const query = [
    ['algorithm', ALGORITHM],
    ['digits', String(DIGITS)],
    ['issuer', issuer],
    ['period', String(PERIOD_SECONDS)],
    ['secret', secret],
  ]
    .map(([key, value]) => `${key}=${escapeQueryValue(value ?? '')}`)
    .join('&');
  return `otpauth://totp/${escapePath(`${issuer}:${accountName}`)}?${query}`;
}

/**
 * The QR code of `uri` as raw SVG markup. auth-js prefixes it with `data:image/svg+xml;utf-8,` without
 * encoding it, so the markup must hold no `#` (it would start a URL fragment): colours are named.
 */
export async function totpQrCodeSvg(uri: string): Promise<string> {
  const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'H', width: QR_CODE_WIDTH });
  return svg.replaceAll('"#000000"', '"black"').replaceAll('"#ffffff"', '"white"');
}

export function totpCodeIsValid(secret: string, code: string): boolean {
  const delta = TOTP.validate({
    token: code.trim(),
    secret: Secret.fromBase32(secret),
    algorithm: ALGORITHM,
    digits: DIGITS,
    period: PERIOD_SECONDS,
    window: WINDOW_STEPS,
  });
  return delta !== null;
}

// Go's url.URL path escaping keeps these sub-delimiters, so `issuer:user@example.com` stays readable.
function escapePath(text: string): string {
  return encodeURIComponent(text).replace(/%(24|26|2B|2C|3A|3B|3D|40)/g, (escaped) =>
    decodeURIComponent(escaped),
  );
}

// Go's url.QueryEscape, with `%20` for spaces as pquerna/otp writes them.
function escapeQueryValue(text: string): string {
  return encodeURIComponent(text).replace(
    /[!'()*]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

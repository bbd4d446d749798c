import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  contentSecurityPolicy,
  headersFile,
  inlineScriptHashes,
  withPolicyMeta,
} from '../../web/content-security-policy.ts';

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

describe("the web app's Content-Security-Policy", () => {
  it('hashes each inline script exactly as written, and no script that has a src', () => {
    const html =
      '<script>\n  boot();\n</script><script type="module" src="/main.js"></script><script type="module">go()</script>';
    expect(inlineScriptHashes(html)).toEqual([sha256('\n  boot();\n'), sha256('go()')]);
  });

  it("allows the project's origin for data and images, its WebSocket for Realtime, and no plugins", () => {
    const policy = contentSecurityPolicy('https://abc.supabase.co', ["'sha256-x'"]);
    expect(policy.split('; ')).toEqual([
      "default-src 'self'",
      "script-src 'self' 'sha256-x'",
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: blob: https://abc.supabase.co/storage/v1/",
      "connect-src 'self' https://abc.supabase.co wss://abc.supabase.co",
      "font-src 'self' data:",
      "object-src 'none'",
      "base-uri 'none'",
      "form-action 'self'",
    ]);
    expect(contentSecurityPolicy('http://127.0.0.1:54321', [])).toContain(
      "connect-src 'self' http://127.0.0.1:54321 ws://127.0.0.1:54321",
    );
  });

  it('goes into the page right before its first script, which it then governs', () => {
    const html = '<head><meta charset="UTF-8" /><title>t</title><script>a()</script></head>';
    const withPolicy = withPolicyMeta(html, 'http://127.0.0.1:54321');
    expect(withPolicy.indexOf('http-equiv="Content-Security-Policy"')).toBeGreaterThan(
      withPolicy.indexOf('<title>'),
    );
    expect(withPolicy.indexOf('http-equiv')).toBeLessThan(withPolicy.indexOf('<script>'));
    expect(withPolicy).toContain(sha256('a()'));
  });

  it('writes the fixed headers for static hosts that read _headers', () => {
    expect(headersFile()).toBe(
      "/*\n  Content-Security-Policy: frame-ancestors 'none'\n  X-Frame-Options: DENY\n  Referrer-Policy: no-referrer\n  X-Content-Type-Options: nosniff\n",
    );
  });
});

import { isIP } from 'node:net';

/** GoTrue's `SITE_URL` and `URI_ALLOW_LIST` (config.toml `[auth] site_url`, `additional_redirect_urls`). */
export interface RedirectSettings {
  siteUrl: string;
  additionalRedirectUrls: string[];
}

const LOCALHOST_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '0.0.0.0', '[::]']);
const DECIMAL_IP = /^[0-9]+$/;
const RAW_HOST = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?([^:/?#]*)/i;
const REGULAR_HOSTNAME = /^[a-zA-Z0-9]([a-zA-Z0-9.-]*[a-zA-Z0-9])?$/;

/** Where an e-mail link may send the browser: the requested address if allowed, else the site URL. */
export function redirectTarget(settings: RedirectSettings, requested: string | null | undefined): string {
  return requested && isRedirectAllowed(settings, requested) ? requested : settings.siteUrl;
}

/** GoTrue's `IsRedirectURLValid`: the site itself (any port on localhost), loopback IPs, or an allow-list glob. */
export function isRedirectAllowed(settings: RedirectSettings, address: string): boolean {
  const site = URL.parse(settings.siteUrl);
  const target = URL.parse(address);
  if (!site || !target) return false;
  const samePort = site.port === target.port || LOCALHOST_NAMES.has(target.hostname);
  if (site.hostname === target.hostname && site.protocol === target.protocol && samePort) return true;
  // WHATWG URLs turn `http://2130706433/` into 127.0.0.1; Go's keep the decimal form, which GoTrue refuses.
  if (DECIMAL_IP.test(RAW_HOST.exec(address)?.[1] ?? '')) return false;
  const hostname = target.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(hostname) !== 0) return isLoopback(hostname);
  const isHttp = target.protocol === 'http:' || target.protocol === 'https:';
  if (isHttp && !REGULAR_HOSTNAME.test(hostname)) return false;
  const withoutFragment = address.split('#')[0] ?? '';
  return settings.additionalRedirectUrls.some((pattern) => globPattern(pattern).test(withoutFragment));
}

function isLoopback(ip: string): boolean {
  return ip === '::1' || ip.startsWith('127.');
}

/**
 * The allow-list globs GoTrue compiles with `.` and `/` as separators: `**` matches anything, `*` anything
 * but a separator, `?` one character that is not one; everything else matches itself.
 */
function globPattern(pattern: string): RegExp {
  const source = pattern
    .split(/(\*\*|\*|\?)/)
    .map((part) => {
      if (part === '**') return '.*';
      if (part === '*') return '[^./]*';
      if (part === '?') return '[^./]';
      return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('');
  return new RegExp(`^${source}$`);
}

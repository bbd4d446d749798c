import { paths } from '../../config/paths.ts';

// Going back to a sign-in step after signing in would only loop.
const SIGN_IN_PATHS: ReadonlySet<string> = new Set([
  paths.signIn,
  paths.signUp,
  paths.mfa,
  paths.forgotPassword,
  paths.resetPassword,
]);

const PLACEHOLDER_ORIGIN = 'https://tasklane.invalid';

/**
 * Where to go after signing in, from a `?redirect=` that anyone can put in a link: only a path of this
 * app, never another origin (`//evil.example`, `/\evil.example`, `https://…`), else the home page.
 */
export function safeRedirectTarget(candidate: unknown): string {
  if (typeof candidate !== 'string' || !isPlainRelativePath(candidate)) return paths.home;
  const url = parseOnThisOrigin(candidate);
  if (!url || SIGN_IN_PATHS.has(url.pathname)) return paths.home;
  return `${url.pathname}${url.search}${url.hash}`;
}

function isPlainRelativePath(candidate: string): boolean {
  if (!candidate.startsWith('/') || candidate.startsWith('//')) return false;
  // Browsers read `\` as `/` and drop tabs and newlines, so `/\host` and `/\t/host` lead off-site.
  return !candidate.includes('\\') && !/\p{Cc}/u.test(candidate);
}

function parseOnThisOrigin(candidate: string): URL | null {
  try {
    const url = new URL(candidate, PLACEHOLDER_ORIGIN);
    return url.origin === PLACEHOLDER_ORIGIN ? url : null;
  } catch {
    return null;
  }
}

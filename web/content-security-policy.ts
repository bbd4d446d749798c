import { createHash } from 'node:crypto';
import type { Connect, Plugin } from 'vite';

/**
 * The headers every response of the web app carries, whatever serves it: they depend on nothing in the
 * build, so a static host can be told them once (docs/deploy.md). What a `<meta>` policy cannot say
 * (frame-ancestors) is said here; the rest of the policy travels in index.html itself.
 */
export const WEB_APP_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': "frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
};

/** Every inline `<script>` (no `src`) of a page, and its text exactly as the browser hashes it. */
const INLINE_SCRIPT = /<script\b(?![^>]*\bsrc\s*=)[^>]*>([\s\S]*?)<\/script>/gi;

/** `'sha256-…'` for each inline script of `html`, in the order they appear. */
export function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(INLINE_SCRIPT)].map(
    ([, text]) =>
      `'sha256-${createHash('sha256')
        .update(text ?? '', 'utf8')
        .digest('base64')}'`,
  );
}

/**
 * The page's policy: scripts from this origin and the inline ones the page was built with, nothing else;
 * data from this origin and the Supabase project (the API, Auth, Realtime); images from this origin and
 * the project's Storage (avatars and attachments come as signed URLs), so a markdown image cannot call
 * out. Styles may be inline: libraries (sonner, Scalar) insert `<style>` elements, and a style cannot run
 * script.
 */
export function contentSecurityPolicy(supabaseUrl: string, scriptHashes: readonly string[]): string {
  const project = new URL(supabaseUrl);
  const realtime = `${project.protocol === 'https:' ? 'wss:' : 'ws:'}//${project.host}`;
  return [
    "default-src 'self'",
    `script-src 'self' ${scriptHashes.join(' ')}`.trim(),
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob: ${project.origin}/storage/v1/`,
    `connect-src 'self' ${project.origin} ${realtime}`,
    "font-src 'self' data:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join('; ');
}

/**
 * index.html with its policy right before its first script: a `<meta>` policy governs only what follows
 * it, and the charset declaration before it stays within the first 1024 bytes.
 */
export function withPolicyMeta(html: string, supabaseUrl: string): string {
  const policy = contentSecurityPolicy(supabaseUrl, inlineScriptHashes(html));
  const meta = `<meta http-equiv="Content-Security-Policy" content="${policy.replaceAll('"', '&quot;')}" />`;
  const firstScript = html.search(/<script\b/i);
  if (firstScript < 0) throw new Error('content-security-policy: index.html has no script');
  return `${html.slice(0, firstScript)}${meta}\n    ${html.slice(firstScript)}`;
}

/** Netlify's and Cloudflare Pages' `_headers` file: the headers for every path. */
export function headersFile(): string {
  const lines = Object.entries(WEB_APP_HEADERS).map(([name, value]) => `  ${name}: ${value}`);
  return `/*\n${lines.join('\n')}\n`;
}

const setWebAppHeaders: Connect.NextHandleFunction = (_req, res, next) => {
  for (const [name, value] of Object.entries(WEB_APP_HEADERS)) res.setHeader(name, value);
  next();
};

/**
 * Puts the policy into index.html, in dev, preview and build alike (after every other change to the
 * page: the hashes are of the scripts as served), sends the fixed headers from the dev and preview
 * servers, and writes them as `_headers` beside the build for static hosts that read that file.
 */
export function contentSecurityPolicyPlugin(supabaseUrl: string): Plugin {
  return {
    name: 'tasklane:content-security-policy',
    enforce: 'post',
    transformIndexHtml: { order: 'post', handler: (html) => withPolicyMeta(html, supabaseUrl) },
    configureServer(server) {
      server.middlewares.use(setWebAppHeaders);
    },
    configurePreviewServer(server) {
      server.middlewares.use(setWebAppHeaders);
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: '_headers', source: headersFile() });
    },
  };
}

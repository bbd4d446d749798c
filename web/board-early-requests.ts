import type { Plugin } from 'vite';
import { PAGE_SIZE } from '../supabase/functions/_shared/limits.ts';
import { PROJECT_KEY } from '../supabase/functions/_shared/vocabulary/project-key.ts';
import { TASK_STATUSES } from '../supabase/functions/_shared/vocabulary/spec-values.ts';
import { WORKSPACE_SLUG } from '../supabase/functions/_shared/vocabulary/workspace-slug.ts';

/** Where index.html's inline script takes its rules. */
const MARKER = /\/\*board-rules\*\/\s*\{\}/;

/** A pattern's body without its anchors, to sit inside a longer one. */
const inner = (pattern: RegExp) => pattern.source.replace(/^\^/, '').replace(/\$$/, '');

/**
 * What a board opened cold asks for before the app's code has loaded, from the modules the app itself
 * uses: the address of a board (slug and key as the API's rules spell them), its columns in order, and the
 * page sizes of a column (the API's default page, as list-tasks.ts asks) and of a whole short list (the
 * largest page, as every-page.ts asks). early-board-requests.test.tsx holds the result to prefetch-board.ts.
 */
export function earlyBoardRules() {
  return {
    board: `^/w/(?<slug>${inner(WORKSPACE_SLUG.pattern)})/p/(?<key>${inner(PROJECT_KEY.pattern)})/?$`,
    statuses: TASK_STATUSES,
    columnPage: PAGE_SIZE.default,
    everyPage: PAGE_SIZE.max,
  };
}

/** index.html with its early script's rules written in. */
export function withEarlyBoardRules(html: string): string {
  if (!MARKER.test(html)) throw new Error('board-early-requests: index.html has no /*board-rules*/{}');
  return html.replace(MARKER, JSON.stringify(earlyBoardRules()));
}

/** Writes the rules into index.html, in development and in the build (decision 0028). */
export function boardEarlyRequests(): Plugin {
  return {
    name: 'tasklane:board-early-requests',
    transformIndexHtml: { order: 'pre', handler: withEarlyBoardRules },
  };
}

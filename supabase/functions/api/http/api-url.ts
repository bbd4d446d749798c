/**
 * The API's public address, without a trailing slash, that absolute links in answers start with (an
 * export's `download_url`). Other links are relative to the request (`Location`, `Link`), since the function
 * is not told under which prefix Supabase's gateway serves it; a link in a document saved to disk has no
 * request to be relative to.
 */
import type { Context } from 'hono';

/** Where Supabase serves the function `api`: docs/product.md#api-conventions's base URL, `{SUPABASE_URL}/functions/v1/api`. */
export const apiUrlFor = (supabaseUrl: string): string =>
  `${supabaseUrl.replace(/\/+$/, '')}/functions/v1/api`;

/**
 * AppDeps.apiUrl when set (index.ts always sets it); else the app is taken to be served as it sees the
 * request, at its origin's /api (the app called directly, as in tests; never true behind the gateway).
 */
export const apiUrlOf = (c: Context, configured: string | undefined): string =>
  configured ?? `${new URL(c.req.url).origin}/api`;

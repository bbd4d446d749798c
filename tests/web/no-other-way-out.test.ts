import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The web's promise (docs/decisions/0020-web-composition.md): every call the web makes is an operation of
 * openapi.yaml. The typed client only accepts the spec's paths (tsc), and these lint rules close the other
 * ways out of the browser.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const eslint = new ESLint({ cwd: root });

async function problemsIn(code: string, file = 'web/src/app/routes/any-screen.tsx'): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}${file}` });
  return (result?.messages ?? []).map((message) => message.ruleId ?? message.message);
}

describe('the web has no way to the server but the typed API client', () => {
  it.each([
    ["void fetch('/rest/v1/task');", 'no-restricted-globals'],
    ["void window.fetch('/rest/v1/task');", 'no-restricted-properties'],
    ['void new XMLHttpRequest();', 'no-restricted-globals'],
    ["void new WebSocket('ws://x');", 'no-restricted-globals'],
    [
      "import { supabase } from '../../lib/supabase-on-demand.ts';\nvoid supabase.from('task').select();",
      'no-restricted-properties',
    ],
    [
      "import { supabase } from '../../lib/supabase-on-demand.ts';\nvoid supabase.rpc('move_task');",
      'no-restricted-properties',
    ],
    ["import createClient from 'openapi-fetch';\nvoid createClient;", 'no-restricted-imports'],
  ])('refuses %s', async (code, rule) => {
    expect(await problemsIn(`${code}\nexport {};\n`)).toContain(rule);
  });

  it.each([
    ['web/src/lib/api/any-client.ts'],
    ['web/src/lib/uploads/any-other-file.ts'],
    ['web/src/features/attachments/any-component.tsx'],
  ])('refuses XMLHttpRequest in %s', async (file) => {
    expect(await problemsIn('void new XMLHttpRequest();\nexport {};\n', file)).toContain(
      'no-restricted-globals',
    );
  });

  it('lets only the uploader use XMLHttpRequest, and not fetch', async () => {
    const file = 'web/src/lib/uploads/put-file.ts';
    expect(await problemsIn('void new XMLHttpRequest();\nexport {};\n', file)).toEqual([]);
    expect(await problemsIn("void fetch('/storage/v1/object');\nexport {};\n", file)).toContain(
      'no-restricted-globals',
    );
  });

  it('accepts a call through the typed client', async () => {
    const code = "import { api } from '../../lib/api/api-client.ts';\nvoid api.GET('/v1/me');\nexport {};\n";
    expect(await problemsIn(code)).toEqual([]);
  });
}, 30_000);

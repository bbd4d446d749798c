import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type FakeManagementApi, startFakeManagementApi } from './support/fake-management-api.ts';
import { ACCESS_TOKEN, deployFunction, localModuleGraph, PROJECT_REF } from './support/functions-deploy.ts';

const REPO = resolve(import.meta.dirname, '..', '..');

let api: FakeManagementApi;
let project: string;

beforeAll(async () => {
  api = await startFakeManagementApi(ACCESS_TOKEN);
  project = await mkdtemp(join(tmpdir(), 'tasklane-functions-deploy-'));
  await cp(join(REPO, 'supabase'), join(project, 'supabase'), { recursive: true });
});

afterAll(async () => {
  await api.close();
  await rm(project, { recursive: true, force: true });
});

/** `verify_jwt` of `[functions.<name>]` in the copy's config.toml. */
async function configuredVerifyJwt(name: string): Promise<boolean> {
  const toml = await readFile(join(project, 'supabase', 'config.toml'), 'utf8');
  const section = toml.split(/^\[/m).find((part) => part.startsWith(`functions.${name}]`)) ?? '';
  const value = /^verify_jwt\s*=\s*(true|false)/m.exec(section)?.[1];
  if (value === undefined) throw new Error(`config.toml sets no verify_jwt for ${name}`);
  return value === 'true';
}

test.each(['api', 'webhook-dispatcher'])(
  'supabase functions deploy %s --use-api uploads every file its code imports, its deno.json and config.toml’s verify_jwt',
  async (name) => {
    const uploadsBefore = api.uploads.length;
    const output = await deployFunction(project, name, api.url);
    expect(output).toContain(`Deployed Functions on project ${PROJECT_REF}: ${name}`);

    const uploads = api.uploads.slice(uploadsBefore);
    expect(uploads.map((upload) => upload.slug)).toEqual([name]);
    const [upload] = uploads;
    if (!upload) throw new Error('no upload');
    const functionDir = `supabase/functions/${name}`;
    expect(upload.metadata).toMatchObject({
      name,
      entrypoint_path: `${functionDir}/index.ts`,
      import_map_path: `${functionDir}/deno.json`,
      verify_jwt: await configuredVerifyJwt(name),
    });

    const graph = await localModuleGraph(project, name);
    expect(graph.code).toContain(`${functionDir}/index.ts`);
    const uploaded = [...upload.files.keys()];
    const importMap = `${functionDir}/deno.json`;
    expect(
      [...graph.code, importMap].filter((path) => !uploaded.includes(path)),
      'left out',
    ).toEqual([]);
    const expected = [...graph.codeAndTypes, importMap];
    expect(
      uploaded.filter((path) => !expected.includes(path)),
      'not in the module graph',
    ).toEqual([]);
    for (const [path, bytes] of upload.files) {
      expect(bytes.equals(await readFile(join(project, path))), path).toBe(true);
    }
  },
);

test('the CLI called nothing but the function upload and the project', () => {
  const known =
    /^(POST \/v1\/projects\/[a-z]{20}\/functions\/deploy\?slug=[a-z-]+|GET \/v1\/projects\/[a-z]{20})$/;
  expect(api.requests.filter((request) => !known.test(request))).toEqual([]);
  expect(api.requests.filter((request) => request.startsWith('POST'))).toHaveLength(2);
});

import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What `supabase functions deploy --use-api` sends as the `metadata` part of its upload. */
export interface DeployMetadata {
  entrypoint_path: string;
  import_map_path?: string;
  name?: string;
  static_patterns?: string[];
  verify_jwt?: boolean;
}

/** One `POST /v1/projects/{ref}/functions/deploy`: its query's slug, its metadata and each file part. */
export interface FunctionUpload {
  slug: string;
  metadata: DeployMetadata;
  /** The file parts by the name the CLI gave them (a path relative to the project directory). */
  files: Map<string, Buffer>;
}

export interface FakeManagementApi {
  url: string;
  /** Every request, as `METHOD /path?query`, in order. */
  requests: string[];
  uploads: FunctionUpload[];
  close(): Promise<void>;
}

const DEPLOY = /^\/v1\/projects\/([a-z]{20})\/functions\/deploy$/;
const FUNCTIONS = /^\/v1\/projects\/([a-z]{20})\/functions$/;
const PROJECT = /^\/v1\/projects\/([a-z]{20})$/;

/**
 * The few Management API routes `supabase functions deploy --use-api` calls, on 127.0.0.1, answering
 * with the shapes of the API's OpenAPI document. Only `token` is accepted as the access token.
 */
export async function startFakeManagementApi(token: string): Promise<FakeManagementApi> {
  const requests: string[] = [];
  const uploads: FunctionUpload[] = [];
  const server = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    answer(request, response, token, uploads).catch((error: unknown) => {
      reply(response, 500, { message: String(error) });
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    uploads,
    close: async () => {
      server.close();
      await once(server, 'close');
    },
  };
}

async function answer(
  request: IncomingMessage,
  response: ServerResponse,
  token: string,
  uploads: FunctionUpload[],
): Promise<void> {
  const body = await readBody(request);
  if (request.headers.authorization !== `Bearer ${token}`) {
    return reply(response, 401, { message: 'Unauthorized' });
  }
  const url = new URL(request.url ?? '/', 'http://127.0.0.1');
  const deploy = DEPLOY.exec(url.pathname);
  if (request.method === 'POST' && deploy) {
    const upload = await parseUpload(url.searchParams.get('slug') ?? '', request, body);
    uploads.push(upload);
    return reply(response, 201, deployedFunction(upload, uploads.length));
  }
  if (request.method === 'GET' && FUNCTIONS.test(url.pathname)) {
    return reply(response, 200, []);
  }
  if (request.method === 'PUT' && FUNCTIONS.test(url.pathname)) {
    return reply(response, 200, { functions: JSON.parse(body.toString('utf8')) as unknown[] });
  }
  const project = PROJECT.exec(url.pathname);
  if (request.method === 'GET' && project?.[1]) {
    return reply(response, 200, projectResponse(project[1]));
  }
  reply(response, 404, { message: `No such route: ${request.method} ${url.pathname}` });
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function parseUpload(slug: string, request: IncomingMessage, body: Buffer): Promise<FunctionUpload> {
  const contentType = request.headers['content-type'] ?? '';
  const form = await new Response(body, { headers: { 'content-type': contentType } }).formData();
  const metadata = form.get('metadata');
  if (typeof metadata !== 'string') throw new Error('The upload has no metadata part');
  const files = new Map<string, Buffer>();
  for (const part of form.getAll('file')) {
    if (typeof part === 'string') throw new Error('A file part has no file name');
    files.set(part.name, Buffer.from(await part.arrayBuffer()));
  }
  return { slug, metadata: JSON.parse(metadata) as DeployMetadata, files };
}

/** The DeployFunctionResponse shape. */
function deployedFunction({ slug, metadata }: FunctionUpload, version: number): Record<string, unknown> {
  const now = Date.now();
  return {
    id: `00000000-0000-4000-8000-${String(version).padStart(12, '0')}`,
    slug,
    name: metadata.name ?? slug,
    status: 'ACTIVE',
    version,
    created_at: now,
    updated_at: now,
    verify_jwt: metadata.verify_jwt,
    import_map: metadata.import_map_path !== undefined,
    entrypoint_path: metadata.entrypoint_path,
    import_map_path: metadata.import_map_path,
  };
}

/** The V1ProjectWithDatabaseResponse shape. */
function projectResponse(ref: string): Record<string, unknown> {
  return {
    id: ref,
    ref,
    organization_id: 'fakeorganization',
    organization_slug: 'fakeorganization',
    name: 'tasklane',
    region: 'eu-central-1',
    created_at: '2026-01-01T00:00:00Z',
    status: 'ACTIVE_HEALTHY',
    database: {
      host: `db.${ref}.localhost`,
      version: '17.4.1',
      postgres_engine: '17',
      release_channel: 'ga',
    },
  };
}

function reply(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

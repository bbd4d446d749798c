import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { blobStore } from './blob-store.ts';

describe('blobStore', () => {
  let root = '';
  afterEach(() => rm(root, { recursive: true, force: true }));

  async function* twoChunks() {
    yield new Uint8Array(600);
    yield new Uint8Array(600);
  }

  it('cuts off a body past the limit and leaves no pending upload, even one cut off while its file opens', async () => {
    root = await mkdtemp(join(tmpdir(), 'blob-store-'));
    const store = blobStore(root);
    await expect(store.receive(twoChunks(), 1000)).rejects.toThrow('exceeded the maximum allowed size');
    expect(await readdir(join(root, 'uploads'))).toEqual([]);
  });

  it('keeps a body within the limit, with its size', async () => {
    root = await mkdtemp(join(tmpdir(), 'blob-store-'));
    const blob = await blobStore(root).receive(twoChunks(), 1200);
    expect(blob.size).toBe(1200);
    expect(await readdir(join(root, 'uploads'))).toHaveLength(1);
  });
});

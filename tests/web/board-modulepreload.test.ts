import { readFile } from 'node:fs/promises';
import type { IndexHtmlTransformContext, IndexHtmlTransformHook, Rollup } from 'vite';
import { describe, expect, it } from 'vitest';
import { boardModulePreload } from '../../web/board-modulepreload.ts';

function chunk(fileName: string, imports: string[], extra: Partial<Rollup.OutputChunk> = {}) {
  return {
    type: 'chunk',
    fileName,
    imports,
    isEntry: false,
    facadeModuleId: null,
    ...extra,
  } as Rollup.OutputChunk;
}

/** A build's chunks: the entry, the two board routes, what they share, and what the board loads later. */
const bundle: Rollup.OutputBundle = Object.fromEntries(
  [
    chunk('assets/index.js', ['assets/react.js'], { isEntry: true, facadeModuleId: '/r/web/index.html' }),
    chunk('assets/react.js', []),
    chunk('assets/layout.js', ['assets/index.js', 'assets/react.js', 'assets/shared.js'], {
      facadeModuleId: '/r/web/src/app/routes/workspace-layout.tsx',
    }),
    chunk('assets/board.js', ['assets/index.js', 'assets/shared.js', 'assets/virtual.js'], {
      facadeModuleId: '/r/web/src/app/routes/board.tsx',
      dynamicImports: ['assets/later.js'],
    }),
    chunk('assets/shared.js', []),
    chunk('assets/virtual.js', []),
    chunk('assets/later.js', []),
    chunk('assets/task.js', [], { facadeModuleId: '/r/web/src/app/routes/task.tsx' }),
  ].map((c) => [c.fileName, c]),
);

async function transform(html: string): Promise<string> {
  const hook = boardModulePreload().transformIndexHtml as { handler: IndexHtmlTransformHook };
  const result = await hook.handler.call(undefined as never, html, {
    path: '/index.html',
    filename: 'index.html',
    bundle,
  } as IndexHtmlTransformContext);
  return result as string;
}

describe('the board chunks written into index.html', () => {
  it("lists the board routes' chunks and their static imports, not the entry's, nor what loads later", async () => {
    const html = await transform('<script>/*board-chunks*/ [].forEach(preload)</script>');
    expect(html).toBe(
      '<script>["/assets/layout.js","/assets/shared.js","/assets/board.js","/assets/virtual.js"].forEach(preload)</script>',
    );
  });

  it('finds the marker in the real index.html', async () => {
    const html = await readFile(new URL('../../web/index.html', import.meta.url), 'utf8');
    expect(await transform(html)).toContain('["/assets/layout.js"');
  });
});

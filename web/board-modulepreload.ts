import type { Plugin } from 'vite';

/** Where index.html's inline script takes the list of the board's chunks (an empty list in dev). */
const MARKER = /\/\*board-chunks\*\/\s*\[\]/;

/** The modules of a board: the workspace layout and the board route, each with what it imports statically. */
const BOARD_MODULES = ['src/app/routes/workspace-layout.tsx', 'src/app/routes/board.tsx'];

/**
 * Writes the hashed names of the board's route chunks into index.html, so that a board opened cold asks
 * for them at once, beside the entry, instead of after the entry has run and the router has matched
 * (decision 0028). Only what those routes import statically: anything they load later stays later.
 */
export function boardModulePreload(): Plugin {
  return {
    name: 'tasklane:board-modulepreload',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        if (!bundle) return html;
        if (!MARKER.test(html)) throw new Error('board-modulepreload: index.html has no /*board-chunks*/[]');
        const chunks = Object.values(bundle).flatMap((output) => (output.type === 'chunk' ? [output] : []));
        const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
        const entry = chunks.find((chunk) => chunk.isEntry);
        const loaded = new Set([entry?.fileName, ...(entry?.imports ?? [])]);
        const wanted: string[] = [];
        const visit = (fileName: string) => {
          if (loaded.has(fileName)) return;
          loaded.add(fileName);
          wanted.push(fileName);
          for (const imported of byName.get(fileName)?.imports ?? []) visit(imported);
        };
        for (const id of BOARD_MODULES) {
          const chunk = chunks.find((c) => c.facadeModuleId?.endsWith(`/web/${id}`));
          if (!chunk) throw new Error(`board-modulepreload: no chunk for ${id}`);
          visit(chunk.fileName);
        }
        return html.replace(MARKER, JSON.stringify(wanted.map((fileName) => `/${fileName}`)));
      },
    },
  };
}

import { MutationObserver, QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { optimisticUpdate } from './optimistic-update.ts';

interface Card {
  key: string;
  column: string;
}

interface Move {
  key: string;
  to: string;
}

const boardKey = ['tasks', 'list', { project: 'ENG' }] as const;
const moveCard = (cards: Card[], { key, to }: Move) =>
  cards.map((card) => (card.key === key ? { ...card, column: to } : card));

let client: QueryClient;
afterEach(() => client.clear());

/** A board whose server holds `server`, cached and on screen (an observer keeps it active). */
async function boardOnScreen(server: { cards: Card[]; reads: number }) {
  client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  const queryFn = () => {
    server.reads += 1;
    return Promise.resolve(structuredClone(server.cards));
  };
  const observer = new QueryObserver(client, { queryKey: boardKey, queryFn });
  const unsubscribe = observer.subscribe(() => undefined);
  await client.fetchQuery({ queryKey: boardKey, queryFn });
  return { cached: () => client.getQueryData<Card[]>(boardKey), unsubscribe };
}

function deferred() {
  let settle!: { resolve: () => void; reject: (error: Error) => void };
  const promise = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
  return { promise, ...settle };
}

describe('optimisticUpdate', () => {
  it('shows the change at once, and puts the cache back when the server refuses it', async () => {
    // Nothing on screen, so settling marks the board stale without reading it again: what the cache
    // holds after the refusal is what onError put back.
    client = new QueryClient();
    client.setQueryData<Card[]>(boardKey, [{ key: 'ENG-1', column: 'todo' }]);
    const answer = deferred();
    const move = new MutationObserver(client, {
      mutationFn: () => answer.promise,
      ...optimisticUpdate<Card[], Move>({ queryKey: boardKey, apply: moveCard }),
    });

    const sent = move.mutate({ key: 'ENG-1', to: 'done' });
    await expect.poll(() => client.getQueryData(boardKey)).toEqual([{ key: 'ENG-1', column: 'done' }]);

    answer.reject(new Error('412 precondition_failed'));
    await expect(sent).rejects.toThrow('412');

    expect(client.getQueryData(boardKey)).toEqual([{ key: 'ENG-1', column: 'todo' }]);
    expect(client.getQueryState(boardKey)?.isInvalidated).toBe(true);
  });

  it("keeps the change when the server accepts it, then reads the server's version", async () => {
    const server = { cards: [{ key: 'ENG-1', column: 'todo' }], reads: 0 };
    const board = await boardOnScreen(server);
    const move = new MutationObserver(client, {
      mutationFn: (variables: Move) => {
        server.cards = moveCard(server.cards, variables);
        return Promise.resolve();
      },
      ...optimisticUpdate<Card[], Move>({ queryKey: () => boardKey, apply: moveCard }),
    });
    const readsBefore = server.reads;

    await move.mutate({ key: 'ENG-1', to: 'in_review' });

    expect(board.cached()).toEqual([{ key: 'ENG-1', column: 'in_review' }]);
    expect(server.reads).toBe(readsBefore + 1);
    board.unsubscribe();
  });

  it('writes nothing when the query is not cached, and restores nothing on error', async () => {
    client = new QueryClient();
    const move = new MutationObserver(client, {
      mutationFn: () => Promise.reject(new Error('offline')),
      ...optimisticUpdate<Card[], Move>({ queryKey: boardKey, apply: moveCard }),
    });

    await expect(move.mutate({ key: 'ENG-1', to: 'done' })).rejects.toThrow('offline');

    expect(client.getQueryData(boardKey)).toBeUndefined();
  });
});

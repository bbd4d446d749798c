import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiAnswer, fetchMock } from '../../../testing/fetch-mock.ts';
import { renderWithQueries } from '../../../testing/render.tsx';
import { ExportPanel } from './export-panel.tsx';

const document = JSON.stringify({
  object: 'export',
  projects: [{ key: 'WEB' }],
  tasks: [{ key: 'WEB-1' }, { key: 'WEB-2' }],
});

/** An export answered in two chunks; the second waits until `release` is called. */
function streamedAnswer(text: string) {
  const bytes = new TextEncoder().encode(text);
  const half = Math.floor(bytes.length / 2);
  let release: () => void = () => undefined;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes.slice(0, half));
      release = () => {
        controller.enqueue(bytes.slice(half));
        controller.close();
      };
    },
  });
  fetchMock.mockImplementation(() =>
    Promise.resolve(
      new Response(body, {
        status: 200,
        headers: {
          'Content-Type': 'application/json',
          'Content-Disposition': 'attachment; filename="acme-export.json"',
        },
      }),
    ),
  );
  return { release: () => release(), half, total: bytes.length };
}

const spies: { mockRestore: () => void }[] = [];

function spyOnDownloads() {
  const createObjectURL = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:export');
  const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
  spies.push(createObjectURL, click);
  return { createObjectURL, click };
}

afterEach(() => {
  for (const spy of spies.splice(0)) spy.mockRestore();
});

describe('ExportPanel', () => {
  it('shows the bytes received while the export streams, then saves the file it checked', async () => {
    const { createObjectURL, click } = spyOnDownloads();
    const answer = streamedAnswer(document);
    const { user } = renderWithQueries(<ExportPanel slug="acme" canExport />);

    await user.click(screen.getByRole('button', { name: 'Export workspace' }));
    expect(await screen.findByText(`${answer.half} bytes received`)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Exporting…' })).toHaveProperty('disabled', true);

    answer.release();
    expect(await screen.findByText(`Exported 2 tasks from 1 project (${answer.total} bytes).`)).toBeTruthy();
    expect(createObjectURL).toHaveBeenCalledTimes(1);
    expect(click).toHaveBeenCalledTimes(1);
    const [link] = click.mock.contexts as HTMLAnchorElement[];
    expect(link?.download).toBe('acme-export.json');
    expect(fetchMock.mock.calls[0]?.[0]).toBeInstanceOf(Request);
    expect(new URL((fetchMock.mock.calls[0]?.[0] as Request).url).pathname).toMatch(
      /\/v1\/workspaces\/acme\/export$/,
    );
  });

  it('refuses to save an export cut short', async () => {
    const { click } = spyOnDownloads();
    const answer = streamedAnswer(document.slice(0, -10));
    const { user } = renderWithQueries(<ExportPanel slug="acme" canExport />);

    await user.click(screen.getByRole('button', { name: 'Export workspace' }));
    answer.release();
    expect(
      await screen.findByText(
        'The export stopped before it was complete, so it was not saved. Export again.',
      ),
    ).toBeTruthy();
    expect(click).not.toHaveBeenCalled();
  });

  it("shows the API's refusal, such as the hourly budget", async () => {
    fetchMock.mockImplementation(() =>
      Promise.resolve(
        apiAnswer(429, { code: 'rate_limited', detail: 'This workspace was exported 10 times this hour.' }),
      ),
    );
    const { user } = renderWithQueries(<ExportPanel slug="acme" canExport />);
    await user.click(screen.getByRole('button', { name: 'Export workspace' }));
    expect(await screen.findByText('This workspace was exported 10 times this hour.')).toBeTruthy();
  });

  it('offers members no export', () => {
    renderWithQueries(<ExportPanel slug="acme" canExport={false} />);
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.getByText(/Only owners and admins can export the workspace/)).toBeTruthy();
  });
});

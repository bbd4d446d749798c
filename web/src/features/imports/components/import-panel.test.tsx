import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { apiAnswer, fetchMock } from '../../../testing/fetch-mock.ts';
import { renderWithQueries } from '../../../testing/render.tsx';
import type { ImportPreview } from '../import-types.ts';
import { ImportPanel } from './import-panel.tsx';

function previewOf(overrides: Partial<ImportPreview> = {}): ImportPreview {
  return {
    object: 'import_preview',
    source: 'trello',
    can_import: true,
    counts: { projects: 1, tasks: 42, comments: 12, labels: 6 },
    projects: [
      {
        source_id: 'board-1',
        name: 'Launch plan',
        key: 'LP',
        exists: false,
        columns: [
          { source_id: 'list-todo', name: 'To do', suggested_status: 'todo', status: 'todo', tasks: 30 },
          { source_id: 'list-done', name: 'Shipped', suggested_status: 'done', status: 'done', tasks: 12 },
        ],
        tasks: { create: 42, already_imported: 0, archived_skipped: 3, invalid: 0 },
        first_tasks: [
          {
            title: 'Write the launch post',
            status: 'todo',
            priority: 'none',
            assignee_id: null,
            due_date: null,
            labels: ['Bug', 'UX'],
          },
        ],
      },
    ],
    labels: [],
    csv_columns: [],
    problems: [{ severity: 'warning', location: 'cards[3].idMembers', message: 'Bob is not a member.' }],
    ...overrides,
  };
}

/** Every import request the panel sent, as the form it was. */
const sentForms: FormData[] = [];

function answerPreviews(...previews: ImportPreview[]) {
  let call = 0;
  fetchMock.mockImplementation(async (input) => {
    sentForms.push(await (input as Request).formData());
    const preview = previews[Math.min(call, previews.length - 1)] ?? previewOf();
    call += 1;
    return apiAnswer(200, preview);
  });
}

const trelloFile = () => new File(['{"id":"board-1"}'], 'board.json', { type: 'application/json' });

describe('ImportPanel', () => {
  it('previews a chosen file at once and sends a changed mapping as options', async () => {
    sentForms.length = 0;
    const remapped = previewOf();
    const shippedColumn = remapped.projects[0]?.columns[1];
    if (shippedColumn) shippedColumn.status = 'in_review';
    answerPreviews(previewOf(), remapped);
    const { user } = renderWithQueries(<ImportPanel slug="acme" canImport />);

    expect(screen.getByText(/Bring in a Trello board, a CSV of tasks/)).toBeTruthy();
    await user.upload(screen.getByLabelText('File'), trelloFile());

    expect(await screen.findByText('Will create 1 project, 42 tasks, 6 labels, 12 comments.')).toBeTruthy();
    expect(screen.getByText('new project')).toBeTruthy();
    expect(screen.getByText('42 new tasks · 3 archived cards left out')).toBeTruthy();
    const shipped = screen.getByRole('row', { name: /Shipped/ });
    expect(within(shipped).getByRole('cell', { name: '12' })).toBeTruthy();
    expect(screen.getByRole('row', { name: /Write the launch post/ }).textContent).toContain('Bug, UX');
    expect(screen.getByText('Bob is not a member.')).toBeTruthy();
    expect(screen.getByText('cards[3].idMembers')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Import' })).toHaveProperty('disabled', false);

    const first = sentForms[0];
    expect(first?.get('source')).toBe('trello');
    expect(first?.get('dry_run')).toBe('true');
    expect((first?.get('file') as File).name).toBe('board.json');
    expect(first?.get('options')).toBeNull();

    await user.selectOptions(screen.getByLabelText('Status for Shipped'), 'in_review');
    await screen.findByDisplayValue('In review');
    expect(sentForms).toHaveLength(2);
    const options = JSON.parse(await (sentForms[1]?.get('options') as Blob).text()) as unknown;
    expect(options).toEqual({ statuses: { 'list-done': 'in_review' } });
    expect(sentForms[1]?.get('dry_run')).toBe('true');
  });

  it("maps a CSV's headers to fields and sends the change as csv_columns", async () => {
    sentForms.length = 0;
    const csvPreview = previewOf({
      source: 'csv',
      csv_columns: [
        { header: 'Summary', field: 'title' },
        { header: 'Owner', field: 'ignored' },
      ],
    });
    answerPreviews(csvPreview);
    const { user } = renderWithQueries(<ImportPanel slug="acme" canImport />);
    await user.click(screen.getByRole('radio', { name: /^CSV/ }));
    await user.upload(screen.getByLabelText('File'), new File(['Summary,Owner\nA,b@x.io\n'], 'tasks.csv'));

    expect(await screen.findByLabelText('Field for Summary')).toHaveProperty('value', 'title');
    expect(screen.queryByLabelText('Import archived cards as Canceled')).toBeNull();
    await user.selectOptions(screen.getByLabelText('Field for Owner'), 'assignee_email');
    await vi.waitFor(() => expect(sentForms).toHaveLength(2));
    expect(sentForms[1]?.get('source')).toBe('csv');
    const options = JSON.parse(await (sentForms[1]?.get('options') as Blob).text()) as unknown;
    expect(options).toEqual({ csv_columns: { Owner: 'assignee_email' } });
  });

  it('keeps Import disabled while the file has errors, and says why', async () => {
    sentForms.length = 0;
    answerPreviews(
      previewOf({
        can_import: false,
        problems: [
          { severity: 'error', location: 'cards[0].name', message: 'A card has no name.' },
          { severity: 'warning', location: 'cards[3].idMembers', message: 'Bob is not a member.' },
        ],
      }),
    );
    const { user } = renderWithQueries(<ImportPanel slug="acme" canImport />);
    await user.upload(screen.getByLabelText('File'), trelloFile());

    const button = await screen.findByRole('button', { name: 'Import' });
    expect(button).toHaveProperty('disabled', true);
    expect(screen.getByText(/The file has errors/).id).toBe(button.getAttribute('aria-describedby'));
    expect(screen.getByText('1 error, 1 warning')).toBeTruthy();
    expect(screen.getByText('A card has no name.')).toBeTruthy();
  });

  it("shows the API's refusal of the file", async () => {
    fetchMock.mockImplementation(() =>
      Promise.resolve(apiAnswer(400, { code: 'bad_request', detail: 'The file is not a Trello board.' })),
    );
    const { user } = renderWithQueries(<ImportPanel slug="acme" canImport />);
    await user.upload(screen.getByLabelText('File'), trelloFile());
    expect(await screen.findByText('The file is not a Trello board.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Import' })).toBeNull();
  });

  it('offers members and viewers no import', () => {
    renderWithQueries(<ImportPanel slug="acme" canImport={false} />);
    expect(screen.queryByLabelText('File')).toBeNull();
    expect(screen.getByText('Only owners and admins can import into the workspace.')).toBeTruthy();
  });
});

/** The bench's one table, as Markdown whose columns line up as Prettier would leave them. */
import type { Latency } from './latency.ts';
import { meetsTarget, type BenchRow, type Target } from './rows.ts';
import type { WebRow } from './web-rows.ts';

const HEADER = ['#', 'subject', 'n', 'p50', 'p99', 'baseline', 'p50', 'p99', 'ratio', 'target', 'result'];

export interface ReportContext {
  startedAt: Date;
  machine: string;
  command: string;
  /** How the rows were measured (rounds, seed sizes), one sentence. */
  method: string;
  /** The timed requests each sequential row asked for; rows with fewer ran out of their time budget. */
  requested: number;
}

export function renderReport(
  rows: readonly BenchRow[],
  context: ReportContext,
  webRows: readonly WebRow[] = [],
): string {
  return [
    `# Tasklane API benchmark, ${context.startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
    '',
    markdownTable([HEADER, ...rows.map(cellsOf)]),
    '',
    ...(webRows.length === 0
      ? []
      : ['## The web app in Chromium', '', markdownTable([WEB_HEADER, ...webRows.map(webCellsOf)]), '']),
    `- Machine: ${context.machine}.`,
    `- Command: \`${context.command}\`.`,
    `- Method: ${context.method}`,
    `- Ratio: the subject's p50 over the baseline's, both measured in the same loop (row f: under the same load, one after the other).`,
    ...cutShort(rows, context.requested),
    '',
  ].join('\n');
}

function cutShort(rows: readonly BenchRow[], requested: number): string[] {
  const short = rows.filter(
    (row) => row.baseline !== null && !row.underLoad && row.latency.count < (row.requested ?? requested),
  );
  if (short.length === 0) return [];
  const ids = short.map((row) => row.id).join(', ');
  return [
    `- Cut short: row(s) ${ids} ran out of their time budget before ${requested.toLocaleString('en')} requests (see n): the subject is far slower than its target, or the machine was busy.`,
  ];
}

function cellsOf(row: BenchRow): string[] {
  const latency = (value: Latency | undefined, pick: 'p50Ms' | 'p99Ms') =>
    value === undefined ? '—' : milliseconds(value[pick]);
  return [
    row.id,
    row.subject,
    row.latency.count.toLocaleString('en'),
    latency(row.latency, 'p50Ms'),
    latency(row.latency, 'p99Ms'),
    row.baseline?.name ?? '—',
    latency(row.baseline?.latency, 'p50Ms'),
    latency(row.baseline?.latency, 'p99Ms'),
    row.ratio === null ? '—' : `${row.ratio.toFixed(2)}×`,
    row.target?.text ?? '—',
    resultOf(row),
  ];
}

const WEB_HEADER = ['#', 'subject', 'figure', 'baseline', 'figure', 'ratio', 'target', 'result'];

function webCellsOf(row: WebRow): string[] {
  const ratio = row.baseline === null ? null : row.value / row.baseline.value;
  return [
    row.id,
    row.subject,
    figure(row.value, row.unit, row.latency),
    row.baseline?.name ?? '—',
    row.baseline ? figure(row.baseline.value, row.unit, row.baseline.latency) : '—',
    ratio === null ? '—' : `${ratio.toFixed(2)}×`,
    row.target.text,
    webResultOf(row),
  ];
}

export function webResultOf(row: WebRow): string {
  const verdict = verdictOf(row.target);
  return row.note === undefined ? verdict : `${verdict}; ${row.note}`;
}

function figure(value: number, unit: WebRow['unit'], latency: Latency | undefined): string {
  if (unit === 'ms') {
    const spread = latency ? ` (p99 ${milliseconds(latency.p99Ms)}, n ${latency.count})` : '';
    return `p50 ${milliseconds(value)}${spread}`;
  }
  if (unit === 'bytes') return `${(value / 1024).toFixed(1)} KiB`;
  return value.toLocaleString('en');
}

/** One line for the progress output: the figures and the verdict. */
export function summaryOf(row: BenchRow): string {
  const subject = `p50 ${milliseconds(row.latency.p50Ms)}, p99 ${milliseconds(row.latency.p99Ms)}`;
  const baseline = row.baseline
    ? ` vs p50 ${milliseconds(row.baseline.latency.p50Ms)}, p99 ${milliseconds(row.baseline.latency.p99Ms)}`
    : '';
  const ratio = row.ratio === null ? '' : `: ${row.ratio.toFixed(2)}×`;
  const target = row.target ? ` (target ${row.target.text})` : '';
  return `${subject}${baseline}${ratio}${target} ${resultOf(row)}`;
}

export function resultOf(row: BenchRow): string {
  const verdict = row.target === null ? 'reference' : verdictOf(row.target);
  return row.note === undefined ? verdict : `${verdict}; ${row.note}`;
}

function verdictOf(target: Target): string {
  if (meetsTarget(target)) return 'pass';
  return `miss: ${target.atLeast ? shortBy(target) : missedBy(target)}`;
}

/** How far over its limit a figure is: in percent when close, as a multiple when far. */
function missedBy({ value, limit }: Target): string {
  if (limit <= 0) return `${value}, not ${limit}`;
  const times = value / limit;
  return times < 2 ? `${Math.round((times - 1) * 100)}% over` : `${times.toFixed(1)}× the limit`;
}

/** How far under its least a figure is, in percent of that least. */
function shortBy({ value, limit }: Target): string {
  return `${Math.round((1 - value / limit) * 100)}% short`;
}

function milliseconds(ms: number): string {
  const digits = ms < 1 ? 3 : ms < 10 ? 2 : 1;
  return `${ms.toFixed(digits)} ms`;
}

function markdownTable(lines: readonly string[][]): string {
  const widths = (lines[0] ?? []).map((_, column) =>
    Math.max(3, ...lines.map((cells) => [...(cells[column] ?? '')].length)),
  );
  const line = (cells: readonly string[]) =>
    `| ${cells.map((cell, column) => cell.padEnd((widths[column] ?? 0) + cell.length - [...cell].length)).join(' | ')} |`;
  const [header = [], ...body] = lines;
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...body.map(line)].join('\n');
}

/**
 * The labels an import's tasks name, each name once whatever its case: the first spelling and the
 * first colour met win, and a second colour for the same name is a warning. A name is trimmed and
 * cut to the longest a label may have; an empty one is dropped. A task keeps at most LABELS_PER_TASK.
 */
import { LABELS_PER_TASK } from '../../_shared/limits.ts';
import { LABEL_NAME_LENGTH } from '../labels/labels.schemas.ts';
import { cutText, quote } from './import-text.ts';
import type { ImportLabel, ImportProblem } from './import-source.ts';

export class LabelCollector {
  readonly #byKey = new Map<string, ImportLabel>();
  readonly #problems: ImportProblem[];

  constructor(problems: ImportProblem[]) {
    this.#problems = problems;
  }

  /** The name the label is known by in this import, or null when it has none. */
  add(rawName: string, color: string, location: string): string | null {
    let name = rawName.trim();
    if (name.length < LABEL_NAME_LENGTH.min) return null;
    if (name.length > LABEL_NAME_LENGTH.max) {
      name = cutText(name, LABEL_NAME_LENGTH.max).trimEnd();
      this.#problems.push({
        severity: 'warning',
        location,
        message: `label ${quote(rawName)} is longer than ${LABEL_NAME_LENGTH.max} characters: cut to ${quote(name)}`,
      });
    }
    const key = name.toLowerCase();
    const known = this.#byKey.get(key);
    if (!known) {
      this.#byKey.set(key, { name, color: color.toLowerCase() });
      return name;
    }
    if (known.color !== color.toLowerCase()) {
      this.#problems.push({
        severity: 'warning',
        location,
        message: `label ${quote(name)} has two colours, ${known.color} and ${color.toLowerCase()}: ${known.color} is kept`,
      });
    }
    return known.name;
  }

  labels(): ImportLabel[] {
    return [...this.#byKey.values()];
  }
}

/** The task's label names, each once, at most LABELS_PER_TASK of them (the rest dropped with a warning). */
export function limitTaskLabels(
  names: readonly string[],
  location: string,
  problems: ImportProblem[],
): string[] {
  const distinct: string[] = [];
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name.toLowerCase())) continue;
    seen.add(name.toLowerCase());
    distinct.push(name);
  }
  if (distinct.length <= LABELS_PER_TASK) return distinct;
  problems.push({
    severity: 'warning',
    location,
    message: `has ${distinct.length} labels, more than ${LABELS_PER_TASK}: ${distinct.slice(LABELS_PER_TASK).map(quote).join(', ')} dropped`,
  });
  return distinct.slice(0, LABELS_PER_TASK);
}

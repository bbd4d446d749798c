import type { ImportProblem } from '../import-types.ts';
import { countOf } from '../import-wording.ts';
import { classNames } from '../../../components/ui/class-names.ts';
import styles from './imports.module.css';

/** Every problem the dry run found, errors first, each with its place in the file. */
export function ImportProblems({ problems }: { problems: ImportProblem[] }) {
  if (problems.length === 0) return null;
  const errors = problems.filter((problem) => problem.severity === 'error');
  const warnings = problems.filter((problem) => problem.severity === 'warning');
  return (
    <section className={styles.problems} aria-label="Problems">
      <h3 className={styles.heading}>
        {[
          errors.length > 0 ? countOf(errors.length, 'error') : null,
          warnings.length > 0 ? countOf(warnings.length, 'warning') : null,
        ]
          .filter(Boolean)
          .join(', ')}
      </h3>
      <ul className={styles.problemList}>
        {[...errors, ...warnings].map((problem, index) => (
          <li
            key={index}
            className={classNames(
              styles.problem,
              problem.severity === 'error' ? styles.error : styles.warning,
            )}
          >
            <span className={styles.severity}>{problem.severity === 'error' ? 'Error' : 'Warning'}</span>
            <code className={styles.location}>{problem.location}</code>
            <span>{problem.message}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

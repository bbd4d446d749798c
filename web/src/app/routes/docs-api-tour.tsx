import { Link } from '@tanstack/react-router';
import Markdown from 'react-markdown';
import tour from '../../../../docs/api-tour.md?raw';
import { paths } from '../../config/paths.ts';
import styles from './docs-api.module.css';

/** `/docs/api/tour`: docs/api-tour.md, the API's main flow with curl, as this app was built with it. */
export function DocsApiTourScreen() {
  return (
    <div className={styles.page}>
      <title>API tour · Tasklane</title>
      <p>
        <Link to={paths.docsApi}>← API reference</Link>
      </p>
      <article className={styles.prose}>
        <Markdown>{tour}</Markdown>
      </article>
    </div>
  );
}

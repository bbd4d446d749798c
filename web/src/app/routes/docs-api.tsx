import { Link } from '@tanstack/react-router';
import spec from '../../../../openapi.yaml?raw';
import { CopyField } from '../../components/ui/copy-field.tsx';
import { paths } from '../../config/paths.ts';
import { apiBaseUrl } from '../../lib/api/api-client.ts';
import { ApiReference } from '../docs/api-reference.tsx';
import styles from './docs-api.module.css';

/** `/docs/api`: the API reference, rendered from the openapi.yaml this app was built with. */
export function DocsApiScreen() {
  return (
    <div className={styles.page}>
      <title>API reference · Tasklane</title>
      <header className={styles.head}>
        <div className={styles.intro}>
          <h1 className={styles.title}>API reference</h1>
          <p className="muted">
            Every operation of Tasklane&apos;s HTTP API. New here? Follow{' '}
            <Link to={paths.docsApiTour}>the tour with curl</Link>: a token, a workspace, a task, and the
            change feed. Create a token in your <Link to={paths.account}>account</Link>.
          </p>
        </div>
        <div className={styles.baseUrl}>
          <CopyField label="Base URL of this Tasklane" value={apiBaseUrl} testId="api-base-url" />
        </div>
      </header>
      <ApiReference spec={spec} baseUrl={apiBaseUrl} />
    </div>
  );
}

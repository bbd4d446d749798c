import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// Testing Library unmounts after each test by itself only where vitest's globals are on; here they are not.
afterEach(cleanup);

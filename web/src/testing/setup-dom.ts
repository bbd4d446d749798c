import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { fetchMock } from './fetch-mock.ts';

vi.stubGlobal('fetch', fetchMock);

afterEach(() => {
  // Testing Library unmounts after each test by itself only where vitest's globals are on; here they are not.
  cleanup();
  fetchMock.mockReset();
});

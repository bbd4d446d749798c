import './global.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppProvider, queryClient } from './provider.tsx';
import { offerReload } from './offer-reload.ts';
import { startOfflineSupport } from '../lib/offline/offline-support.ts';

const container = document.getElementById('root');
if (!container) throw new Error('index.html must contain <div id="root">.');

// Online this resolves at once; opened offline, once the data saved for offline use is in the cache.
void startOfflineSupport(queryClient, offerReload).then(() =>
  createRoot(container).render(
    <StrictMode>
      <AppProvider />
    </StrictMode>,
  ),
);

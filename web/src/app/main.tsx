import './global.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppProvider } from './provider.tsx';

const container = document.getElementById('root');
if (!container) throw new Error('index.html must contain <div id="root">.');

createRoot(container).render(
  <StrictMode>
    <AppProvider />
  </StrictMode>,
);

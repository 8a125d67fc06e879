import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
// The kit's colour and spacing variables and its light/dark switch, which the editor and the
// diffs use: loaded once, before the app's own styles.
import '@suite/web-ui/kit.css';
import './styles.css';
import { App } from './App.js';
import { takeSetupToken } from './setup-token.js';

// Before the first render, so the router never sees the token's URL.
const setupToken = takeSetupToken();

const root = document.getElementById('root');
if (root)
  createRoot(root).render(
    <StrictMode>
      <App setupToken={setupToken} />
    </StrictMode>,
  );

import { applyTheme, KitProvider } from '@suite/web-ui/kit';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
// The kit's colour and spacing variables, its components and its light/dark switch: loaded once,
// before the app's own styles, which are drawn with the same variables.
import '@suite/web-ui/kit.css';
import './styles.css';
import { App } from './App.js';
import { takeSetupToken } from './setup-token.js';

// Before the first render, so the router never sees the token's URL.
const setupToken = takeSetupToken();
// The theme chosen with the switch (none: the system's), before the first paint.
applyTheme();

const root = document.getElementById('root');
if (root)
  createRoot(root).render(
    <StrictMode>
      <KitProvider>
        <App setupToken={setupToken} />
      </KitProvider>
    </StrictMode>,
  );

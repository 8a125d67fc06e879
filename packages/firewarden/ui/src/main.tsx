import { applyTheme, KitProvider } from '@suite/web-ui/kit';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import '@suite/web-ui/kit.css';
import './styles.css';

applyTheme();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <KitProvider>
      <App />
    </KitProvider>
  </StrictMode>,
);

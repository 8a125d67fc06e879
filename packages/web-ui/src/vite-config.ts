/**
 * The Vite build both UIs share: the shared `index.html` (`index-html.ts`), output in the package's `dist/ui`, no inline script or inlined
 * asset (the servers' CSP says `script-src 'self'`), no module-preload polyfill (it would be an
 * inline script), and a dev server proxying `/api` to the product's server.
 */
import react from '@vitejs/plugin-react';
import { defineConfig, type UserConfig } from 'vite';
import { sharedIndexHtml } from './index-html.js';

export interface UiViteOptions {
  /** The product's UI folder, holding `src/main.tsx` (`import.meta.dirname` of the config file). */
  root: string;
  /** The page title: the product's name. */
  title: string;
  /** Where the dev server sends `/api`, e.g. `http://127.0.0.1:7676`. */
  apiTarget: string;
  /** Proxy WebSocket upgrades too (terminals, events). */
  websocket?: boolean;
}

export function uiViteConfig(options: UiViteOptions): UserConfig {
  return defineConfig({
    root: options.root,
    base: '/',
    plugins: [react(), sharedIndexHtml(options.root, options.title)],
    build: {
      outDir: '../dist/ui',
      emptyOutDir: true,
      assetsInlineLimit: 0,
      modulePreload: { polyfill: false },
    },
    server: {
      proxy: { '/api': { target: options.apiTarget, ws: options.websocket ?? false } },
    },
  });
}

/**
 * Builds the web UI into `dist/ui` (served by `firewarden serve` at `/`). No inline script or
 * style ends up in the page, so the server's CSP can say `default-src 'self'`.
 */
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  plugins: [react()],
  build: {
    outDir: '../dist/ui',
    emptyOutDir: true,
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
  },
  server: {
    // `npm run ui:dev -w packages/firewarden` next to `firewarden serve` on 7443.
    proxy: { '/api': { target: 'http://127.0.0.1:7443' } },
  },
});

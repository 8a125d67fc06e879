/**
 * Builds the embedded UI into `dist/ui` (served by `workspaced serve` at `/`). No inline script
 * ends up in the page, so the daemon's CSP can say `script-src 'self'`.
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
    // `npx vite --config ui/vite.config.ts` next to `workspaced serve` on 7676.
    proxy: { '/api': { target: 'http://127.0.0.1:7676', ws: true } },
  },
});

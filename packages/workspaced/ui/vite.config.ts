/**
 * Builds the embedded UI into `dist/ui` (served by `workspaced serve` at `/`); `npx vite --config
 * ui/vite.config.ts` runs it next to `workspaced serve` on 7676 (terminal and event sockets too).
 */
import { uiViteConfig } from '@suite/web-ui/vite';

export default uiViteConfig({
  root: import.meta.dirname,
  title: 'workspaced',
  apiTarget: 'http://127.0.0.1:7676',
  websocket: true,
});

/**
 * Builds the web UI into `dist/ui` (served by `firewarden serve` at `/`); `npm run ui:dev -w
 * packages/firewarden` runs it next to `firewarden serve` on 7443.
 */
import { uiViteConfig } from '@suite/web-ui/vite';

export default uiViteConfig({
  root: import.meta.dirname,
  title: 'firewarden',
  apiTarget: 'http://127.0.0.1:7443',
});

/**
 * Wraps an app in what the kit needs once: Base UI told never to render an inline `<style>` (the
 * servers' CSP refuses them; every style is in `kit.css`), and the toasts.
 */
import { CSPProvider } from '@base-ui/react/csp-provider';
import type { ReactNode } from 'react';
import { ToastProvider } from './toast.js';

export function KitProvider({ children }: { children: ReactNode }) {
  return (
    <CSPProvider disableStyleElements>
      <ToastProvider>{children}</ToastProvider>
    </CSPProvider>
  );
}

/**
 * Toasts on Base UI's: `useToast()` adds one (`notify({title, description, tone})`); they are read
 * out by screen readers (a live region), pause while hovered or focused, and F6 reaches them.
 * Put `<ToastProvider>` once around the app.
 */
import { Toast } from '@base-ui/react/toast';
import { X } from 'lucide-react';
import type { ReactNode } from 'react';

export type Tone = 'neutral' | 'ok' | 'warn' | 'danger' | 'info';

export function ToastProvider({ children }: { children: ReactNode }) {
  return (
    <Toast.Provider timeout={6000}>
      {children}
      <Toast.Portal>
        <Toast.Viewport className="kit-toasts">
          <ToastList />
        </Toast.Viewport>
      </Toast.Portal>
    </Toast.Provider>
  );
}

function ToastList() {
  const { toasts } = Toast.useToastManager();
  return toasts.map((toast) => (
    <Toast.Root key={toast.id} toast={toast} className={`kit-toast kit-tone-${toast.type ?? 'neutral'}`}>
      <div className="kit-toast-text">
        <Toast.Title className="kit-toast-title" />
        <Toast.Description className="kit-toast-description" />
      </div>
      <Toast.Close className="kit-icon-button" aria-label="Dismiss">
        <X aria-hidden="true" size={16} />
      </Toast.Close>
    </Toast.Root>
  ));
}

export function useToast() {
  const manager = Toast.useToastManager();
  return {
    notify(toast: { title: string; description?: string; tone?: Tone }) {
      manager.add({ title: toast.title, description: toast.description, type: toast.tone ?? 'neutral' });
    },
  };
}

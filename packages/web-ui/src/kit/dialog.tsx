/**
 * A modal dialog on Base UI's: focus moves into it and stays there (Tab cycles inside), Escape
 * or the close button closes it, focus returns to what opened it, the page behind is inert.
 */
import { Dialog as BaseDialog } from '@base-ui/react/dialog';
import { X } from 'lucide-react';
import type { ReactNode } from 'react';

export interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  /** The buttons at the bottom (the main action last). */
  actions?: ReactNode;
}

export function Dialog(props: DialogProps) {
  return (
    <BaseDialog.Root open={props.open} onOpenChange={(open) => props.onOpenChange(open)}>
      <BaseDialog.Portal>
        <BaseDialog.Backdrop className="kit-backdrop" />
        <BaseDialog.Popup className="kit-dialog">
          <div className="kit-dialog-head">
            <BaseDialog.Title className="kit-dialog-title">{props.title}</BaseDialog.Title>
            <BaseDialog.Close className="kit-icon-button" aria-label="Close">
              <X aria-hidden="true" size={18} />
            </BaseDialog.Close>
          </div>
          {props.description && (
            <BaseDialog.Description className="kit-dialog-description">
              {props.description}
            </BaseDialog.Description>
          )}
          {props.children}
          {props.actions && <div className="kit-actions">{props.actions}</div>}
        </BaseDialog.Popup>
      </BaseDialog.Portal>
    </BaseDialog.Root>
  );
}

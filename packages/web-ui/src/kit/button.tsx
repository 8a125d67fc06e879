/** A native button in the kit's look: `primary` for the one main action of a screen, `danger` for what cannot be undone. */
import type { ButtonHTMLAttributes, ReactNode } from 'react';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: 'default' | 'primary' | 'danger' | 'ghost';
  /** An icon drawn before the label (hidden from screen readers: the label says it). */
  icon?: ReactNode;
}

export function Button({
  variant = 'default',
  icon,
  className,
  type = 'button',
  children,
  ...rest
}: ButtonProps) {
  return (
    <button {...rest} type={type} className={classes('kit-button', `kit-button-${variant}`, className)}>
      {icon && (
        <span className="kit-button-icon" aria-hidden="true">
          {icon}
        </span>
      )}
      {children}
    </button>
  );
}

export function classes(...names: (string | false | null | undefined)[]): string {
  return names.filter(Boolean).join(' ');
}

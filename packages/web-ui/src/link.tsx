/**
 * An in-app link: a real `<a href>` that navigates without a reload. A click with Ctrl, Cmd,
 * Shift or Alt, or another button than the main one, is left to the browser (new tab, new
 * window, download), as with any link.
 */
import type { AnchorHTMLAttributes, MouseEvent } from 'react';
import { navigate } from './router.js';

export interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  to: string;
  /** The link to the screen shown now (`aria-current="page"`). */
  active?: boolean;
}

export function Link({ to, active = false, onClick, children, ...rest }: LinkProps) {
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || opensElsewhere(event)) return;
    event.preventDefault();
    navigate(to);
  };
  return (
    <a {...rest} href={to} aria-current={active ? 'page' : undefined} onClick={follow}>
      {children}
    </a>
  );
}

function opensElsewhere(event: MouseEvent): boolean {
  return event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey;
}

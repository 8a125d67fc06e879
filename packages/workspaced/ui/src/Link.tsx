/** An in-app link: a real `<a href>` (open in a new tab works) that navigates without a reload. */
import { navigate } from '@suite/web-ui';

export function Link({ to, label, active }: { to: string; label: string; active: boolean }) {
  return (
    <a
      href={to}
      aria-current={active ? 'page' : undefined}
      onClick={(event) => {
        if (event.ctrlKey || event.metaKey || event.shiftKey) return;
        event.preventDefault();
        navigate(to);
      }}
    >
      {label}
    </a>
  );
}

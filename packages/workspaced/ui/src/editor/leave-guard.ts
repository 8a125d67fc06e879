/**
 * Asks before unsaved edits are left behind, wherever the leaving starts: the page closed or
 * reloaded (`beforeunload`: the browser's own question), an in-app link clicked (a project tab,
 * the main menu), Back or Forward, and a screen the app opens by itself.
 *
 * A link click is stopped in the capture phase on window, before React's listener on its root
 * sees it, so cancelling changes nothing (every browser). Back, Forward and the router's
 * `pushState` are asked through the Navigation API's cancelable `navigate` event, which comes
 * before the address changes. `popstate` cannot do this: it comes after, and on window its
 * listeners run in the order they were added, so the router's (added first) would already have
 * unmounted the editor. A browser without the Navigation API asks for links and unloads only.
 */
import { useEffect } from 'react';

/** The part of the Navigation API used here (TypeScript's DOM library has no types for it yet). */
interface NavigateEvent extends Event {
  readonly destination: { readonly url: string };
}

export function useLeaveGuard(active: boolean, question: string): void {
  useEffect(() => {
    if (!active) return;
    const here = window.location.pathname;
    // Once the user agreed to leave, the navigation that follows must not ask a second time.
    let leaving = false;
    const ask = (event: Event) => {
      if (window.confirm(question)) leaving = true;
      else {
        event.preventDefault();
        event.stopPropagation();
      }
    };
    const unload = (event: BeforeUnloadEvent) => event.preventDefault();
    const click = (event: MouseEvent) => {
      if (!leaving && leavesScreen(event)) ask(event);
    };
    const navigate = (event: Event) => {
      const to = new URL((event as NavigateEvent).destination.url).pathname;
      if (!leaving && event.cancelable && to !== here) ask(event);
    };
    const navigation = (window as { navigation?: EventTarget }).navigation;
    window.addEventListener('beforeunload', unload);
    window.addEventListener('click', click, true);
    navigation?.addEventListener('navigate', navigate);
    return () => {
      window.removeEventListener('beforeunload', unload);
      window.removeEventListener('click', click, true);
      navigation?.removeEventListener('navigate', navigate);
    };
  }, [active, question]);
}

/** Whether the click follows a link of this app to another screen in this tab. */
function leavesScreen(event: MouseEvent): boolean {
  if (event.defaultPrevented || event.button !== 0) return false;
  if (event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return false;
  const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
  if (!(link instanceof HTMLAnchorElement) || (link.target !== '' && link.target !== '_self')) return false;
  return link.origin === window.location.origin && link.pathname !== window.location.pathname;
}

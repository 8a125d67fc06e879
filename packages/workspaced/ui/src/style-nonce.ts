/**
 * @module The page's nonce, for the `<style>` elements xterm.js and CodeMirror create (CodeMirror
 * takes it as `EditorView.cspNonce`). workspaced's CSP admits an inline style only with the nonce
 * of the answer that delivered the page; the daemon writes it on the page's module script, where
 * Chromium keeps it in the element's `nonce` property and empties the attribute (a CSS selector
 * cannot read it out of the page).
 */

/** This page's nonce; '' under Vite's dev server, which sends no CSP. */
export function pageNonce(): string {
  return document.querySelector<HTMLScriptElement>('script[type="module"][nonce]')?.nonce ?? '';
}

/**
 * Runs `call` (a call into xterm.js) with every `<style>` element created meanwhile carrying the
 * page's nonce: set at creation, before xterm.js appends the element, since a style is checked
 * against the CSP when it is inserted. Only elements created during the call are marked: xterm.js 6
 * creates its three (grid size, colours, scrollbar) in `Terminal.open` and later only rewrites
 * their text, which the nonce on the element keeps admitting.
 */
export function withStyleNonce<T>(call: () => T): T {
  const nonce = pageNonce();
  const createElement = Document.prototype.createElement;
  // An own property of `document` in front of the prototype's method, removed again below.
  Object.defineProperty(document, 'createElement', {
    configurable: true,
    value(this: Document, tagName: string, options?: ElementCreationOptions) {
      const element = createElement.call(this, tagName, options);
      if (element instanceof HTMLStyleElement) element.nonce = nonce;
      return element;
    },
  });
  try {
    return call();
  } finally {
    Reflect.deleteProperty(document, 'createElement');
  }
}

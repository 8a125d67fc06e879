/**
 * A page for the browser tests of the shared hooks: each answer of `useLoad` is a promise the
 * test settles (`window.settle(key, value)`), and a `Link` next to the current path shows what a
 * click did; `window.clicks` records whether the link prevented each click's default action
 * (then the page stops the browser's own following, so a new tab or a full load never hides it).
 */
import { Link, useLoad, usePath } from '@suite/web-ui';
import { useState } from 'react';
import { createRoot } from 'react-dom/client';

interface HarnessWindow {
  settle: (key: string, value: string) => void;
  fail: (key: string, message: string) => void;
  clicks: boolean[];
}
const harness = window as unknown as HarnessWindow;
const pending = new Map<string, { resolve: (value: string) => void; reject: (error: Error) => void }>();
harness.settle = (key, value) => pending.get(key)?.resolve(value);
harness.fail = (key, message) => pending.get(key)?.reject(new Error(message));
harness.clicks = [];
window.addEventListener('click', (event) => {
  harness.clicks.push(event.defaultPrevented);
  event.preventDefault();
});

function answerFor(key: string): Promise<string> {
  return new Promise((resolve, reject) => pending.set(key, { resolve, reject }));
}

function Loader() {
  const [filter, setFilter] = useState('first');
  const { data, error, reload } = useLoad(() => answerFor(filter), [filter]);
  return (
    <section>
      <p data-testid="data">{data ?? 'nothing yet'}</p>
      <p data-testid="error">{error ?? 'no error'}</p>
      <button type="button" onClick={() => setFilter('second')}>
        Second filter
      </button>
      <button type="button" onClick={() => reload()}>
        Reload
      </button>
    </section>
  );
}

function Navigation() {
  const path = usePath();
  return (
    <nav>
      <p data-testid="path">{path}</p>
      <Link to="/next" active={path === '/next'}>
        Next screen
      </Link>
    </nav>
  );
}

createRoot(document.getElementById('root')!).render(
  <>
    <Loader />
    <Navigation />
  </>,
);

/**
 * The two lines a screen shows after an action: what failed (an alert: screen readers announce
 * it) and what was done (a status). Nothing is rendered for an empty message.
 */
export function ErrorLine({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <p role="alert" className="error">
      {message}
    </p>
  );
}

export function StatusLine({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <p role="status" className="ok">
      {message}
    </p>
  );
}

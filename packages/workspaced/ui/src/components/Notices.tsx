/**
 * The line a screen shows when an action failed: an alert (screen readers announce it) that stays
 * until the next action; what was done is a toast (`useToast`). Nothing is rendered for an empty
 * message.
 */
export function ErrorLine({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <p role="alert" className="error">
      {message}
    </p>
  );
}

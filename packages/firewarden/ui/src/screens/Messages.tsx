/** The one-line messages of every screen: errors are alerts, results are polite status lines. */

export function ErrorMessage({ text }: { text: string | null | undefined }) {
  if (!text) return null;
  return (
    <p role="alert" className="error">
      {text}
    </p>
  );
}

export function StatusMessage({ text }: { text: string | null | undefined }) {
  if (!text) return null;
  return (
    <p role="status" className="notice">
      {text}
    </p>
  );
}

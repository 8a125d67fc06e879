/** The one-line messages of every screen (the kit's notices): errors are alerts, results are polite status lines. */
import { Notice } from '@suite/web-ui/kit';

export function ErrorMessage({ text }: { text: string | null | undefined }) {
  return <Notice tone="error" text={text} />;
}

export function StatusMessage({ text }: { text: string | null | undefined }) {
  return <Notice tone="status" text={text} />;
}

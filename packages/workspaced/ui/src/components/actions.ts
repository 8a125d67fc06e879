/**
 * The two ways the screens run a request a user asked for: a list's actions (`useActions`: the
 * answer's sentence becomes the status line, a refusal the error line, then the list reloads) and
 * a form's submit (`useSubmit`: the refusal is shown by the form, or handed to `onError`).
 */
import { errorText } from '@suite/web-ui';
import { type FormEvent, useState } from 'react';

export function useActions(reload: () => void) {
  const [error, setError] = useState<string>();
  const [status, setStatus] = useState<string>();
  /** `action` answers the sentence to show (or nothing to show). */
  const run = async (action: () => Promise<unknown>) => {
    setError(undefined);
    setStatus(undefined);
    try {
      const done = await action();
      setStatus(typeof done === 'string' ? done : undefined);
      reload();
    } catch (failure) {
      setError(errorText(failure));
    }
  };
  return { error, status, setError, run };
}

export function useSubmit(send: () => Promise<void>, onError?: (message: string) => void) {
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    setBusy(true);
    try {
      await send();
    } catch (failure) {
      if (onError) onError(errorText(failure));
      else setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  };
  return { submit, error, busy };
}

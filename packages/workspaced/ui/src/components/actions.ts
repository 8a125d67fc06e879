/**
 * The two ways the screens run a request a user asked for: a list's actions (`useActions`: the
 * answer's sentence becomes a toast, a refusal the error line, which stays until the next action,
 * then the list reloads) and a form's submit (`useSubmit`: the refusal is shown by the form, or
 * handed to `onError`).
 */
import { errorText } from '@suite/web-ui';
import { useToast } from '@suite/web-ui/kit';
import { type FormEvent, useState } from 'react';

export function useActions(reload: () => void) {
  const [error, setError] = useState<string>();
  const toast = useToast();
  /** `action` answers the sentence to show (or nothing to show). */
  const run = async (action: () => Promise<unknown>) => {
    setError(undefined);
    try {
      const done = await action();
      if (typeof done === 'string') toast.notify({ title: done, tone: 'ok' });
      reload();
    } catch (failure) {
      setError(errorText(failure));
    }
  };
  return { error, setError, run };
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

import { useLingui } from '@lingui/react/macro';
import { useCallback, useRef, useState } from 'react';
import { describeError, type ErrorText } from './describe-error';

/** What the last change answered: the console's own success sentence, or the failure. */
export type ActionResult = { kind: 'success'; text: string } | ({ kind: 'error'; error: unknown } & ErrorText) | null;

/**
 * Runs a change (a POST) once at a time: a second click while one runs sends nothing. The
 * server's `{ done }` sentence is English, so the console shows its own translated `success`.
 * Answers the change's answer, or undefined when it failed (`onError` gets the error then).
 */
export function useAction() {
  const { i18n } = useLingui();
  const running = useRef(false);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<ActionResult>(null);

  const run = useCallback(
    async <T>(change: () => Promise<T>, success: string | ((answer: T) => string), onError?: (error: unknown) => void): Promise<T | undefined> => {
      if (running.current) return undefined;
      running.current = true;
      setBusy(true);
      setResult(null);
      try {
        const answer = await change();
        setResult({ kind: 'success', text: typeof success === 'function' ? success(answer) : success });
        return answer;
      } catch (error) {
        setResult({ kind: 'error', error, ...describeError(i18n, error) });
        onError?.(error);
        return undefined;
      } finally {
        running.current = false;
        setBusy(false);
      }
    },
    [i18n],
  );

  const clear = useCallback(() => setResult(null), []);
  return { run, busy, result, clear };
}

export type ConsoleAction = ReturnType<typeof useAction>;

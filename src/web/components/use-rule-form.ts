import { useMemo, useState } from 'react';
import { useLingui } from '@lingui/react';
import type { MessageDescriptor } from '@lingui/core';

interface FormState<V> {
  /** The initialValues object these values started from: a new object resets the form. */
  source: V;
  values: V;
  touched: ReadonlySet<string>;
  /** After a submit attempt every error shows, touched or not. */
  submitted: boolean;
}

const freshState = <V,>(initialValues: V): FormState<V> => ({
  source: initialValues,
  values: initialValues,
  touched: new Set(),
  submitted: false,
});

/** Field -> the code of its first failing rule. */
type RuleErrors<C extends string> = Partial<Record<string, C>>;

/**
 * A form checked by the shared rules of spec §5 (the travel details form, the call-back
 * request, a traveller at review); `messages` turns each rule's code into its words. Errors come from `validate` on every change; a field shows its error once it was
 * left or changed (validation on blur, then on change), and every field shows after a submit
 * attempt. Server errors show on their fields until the user edits that field. `validate` must
 * be stable (useCallback) or every render recomputes the errors.
 */
export function useRuleForm<V, C extends string>(
  initialValues: V,
  validate: (values: V) => RuleErrors<C>,
  serverErrors: RuleErrors<C>,
  messages: Record<C, MessageDescriptor>,
  messageValues: Record<string, unknown> = {},
) {
  const { i18n } = useLingui();
  const [state, setState] = useState(() => freshState(initialValues));
  if (state.source !== initialValues) setState(freshState(initialValues));

  const [serverSource, setServerSource] = useState(serverErrors);
  const [serverShown, setServerShown] = useState<RuleErrors<C>>(serverErrors);
  if (serverSource !== serverErrors) {
    setServerSource(serverErrors);
    setServerShown(serverErrors);
  }

  const { values, touched, submitted } = state;
  const errors = useMemo(() => validate(values), [values, validate]);

  const codeOf = (field: string) => ((submitted || touched.has(field) ? errors[field] : undefined) ?? serverShown[field]);

  // The actions only set state, so they are made once: a memoised field handed one draws again
  // only when what it shows changes (the review form's fields, issue 35).
  const [actions] = useState(() => ({
    /**
     * Applies a change. `edited` fields were changed by the user: they lose their server error.
     * `touched` fields show their errors from now on.
     */
    update(change: (values: V) => V, { edited = [], touched = [] }: { edited?: string[]; touched?: string[] }) {
      setState((current) => ({
        ...current,
        values: change(current.values),
        touched: touched.every((field) => current.touched.has(field)) ? current.touched : new Set([...current.touched, ...touched]),
      }));
      // Read from the state, not this render: a section the form did not draw again (a memoised
      // one) still holds the update of an earlier render.
      if (edited.length > 0) {
        setServerShown((shown) => (edited.some((field) => shown[field]) ? Object.fromEntries(Object.entries(shown).filter(([field]) => !edited.includes(field))) : shown));
      }
    },
    touch(...fields: string[]) {
      setState((current) =>
        fields.every((field) => current.touched.has(field)) ? current : { ...current, touched: new Set([...current.touched, ...fields]) },
      );
    },
    markSubmitted() {
      setState((current) => (current.submitted ? current : { ...current, submitted: true }));
    },
  }));

  return {
    values,
    /** Every rule's verdict on the current values, shown or not. */
    errors,
    /** The message shown under a field, or undefined. */
    errorOf(field: string): string | undefined {
      const code = codeOf(field);
      if (!code) return undefined;
      // Built outside the call: Lingui's extractor cannot read an object literal passed to i18n._.
      const message = { ...messages[code], values: messageValues };
      return i18n._(message);
    },
    ...actions,
  };
}

export type RuleFormApi<V, C extends string> = ReturnType<typeof useRuleForm<V, C>>;

import { useLayoutEffect, useReducer, useRef, type ClipboardEvent, type Ref } from 'react';
import { TextInput, type TextInputProps } from '@mantine/core';
import { useMergedRef } from '@mantine/hooks';
import { toWesternDigits } from '../../contract/digits';

export interface NumericTextInputProps extends Omit<TextInputProps, 'value' | 'onChange' | 'maxLength' | 'defaultValue'> {
  value: string;
  /** The normalised text, after every keystroke and every paste. */
  onValueChange: (next: string) => void;
  /**
   * The field's whole text as it should read: Arabic-keyboard digits converted, what does not
   * belong stripped, THEN capped (src/contract/digits.ts). `previous` is the text before.
   */
  normalize: (raw: string, previous: string) => string;
  /**
   * The pasted text alone, before it joins what is already there (for a phone, "+961 71 123
   * 456" loses its calling code here, which it could not once mixed with other digits).
   */
  normalizePaste?: (pasted: string) => string;
  ref?: Ref<HTMLInputElement>;
}

/** Where the caret goes in `next`: after as many digits as stood before it in `raw`. */
export function caretAfterNormalising(raw: string, caretInRaw: number, next: string): number {
  if (caretInRaw >= raw.length) return next.length;
  const digitsBefore = toWesternDigits(raw.slice(0, caretInRaw)).replace(/\D/g, '').length;
  if (digitsBefore === 0) return 0;
  let seen = 0;
  for (let index = 0; index < next.length; index += 1) {
    if (/\d/.test(next[index]!)) seen += 1;
    if (seen === digitsBefore) return index + 1;
  }
  return next.length;
}

/**
 * The app's one number field (issue 8 rows 1–2): phone numbers now, passports, dates and
 * amounts at review and checkout. A Mantine TextInput WITHOUT an HTML maxlength, because the
 * browser applies maxlength to the raw text before anything is stripped (a pasted
 * "+961 71 123 456" became "96171"); the cap is applied after normalising, on typing and on
 * paste. The caret stays after the digit it followed, wherever the normaliser moved it.
 */
export function NumericTextInput({ value, onValueChange, normalize, normalizePaste, ref, onPaste, inputMode = 'numeric', ...rest }: NumericTextInputProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  const mergedRef = useMergedRef(inputRef, ref);
  const pendingCaret = useRef<number | null>(null);
  // A keystroke the normaliser drops leaves the value as it was: render anyway to put the caret back.
  const [, rerender] = useReducer((n: number) => n + 1, 0);

  useLayoutEffect(() => {
    const input = inputRef.current;
    const caret = pendingCaret.current;
    pendingCaret.current = null;
    if (caret === null || !input || input.ownerDocument.activeElement !== input) return;
    const at = Math.min(caret, input.value.length);
    input.setSelectionRange(at, at);
  });

  const apply = (raw: string, caretInRaw: number) => {
    const next = normalize(raw, value);
    pendingCaret.current = caretAfterNormalising(raw, caretInRaw, next);
    if (next === value) rerender();
    else onValueChange(next);
  };

  const handlePaste = (event: ClipboardEvent<HTMLInputElement>) => {
    onPaste?.(event);
    if (event.defaultPrevented) return;
    const pasted = event.clipboardData.getData('text');
    if (!pasted) return;
    event.preventDefault();
    const input = event.currentTarget;
    const start = input.selectionStart ?? value.length;
    const end = input.selectionEnd ?? start;
    const piece = normalizePaste ? normalizePaste(pasted) : pasted;
    apply(`${value.slice(0, start)}${piece}${value.slice(end)}`, start + piece.length);
  };

  return (
    <TextInput
      {...rest}
      ref={mergedRef}
      inputMode={inputMode}
      value={value}
      onChange={(event) => {
        const input = event.currentTarget;
        apply(input.value, input.selectionStart ?? input.value.length);
      }}
      onPaste={handlePaste}
    />
  );
}

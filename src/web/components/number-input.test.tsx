import { useState } from 'react';
import { MantineProvider } from '@mantine/core';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { nationalDigits, phoneDigits } from '../../contract/digits';
import { caretAfterNormalising, NumericTextInput } from './number-input';

afterEach(cleanup);

/** A phone field under +961 as the contact section uses it. */
function Phone({ initial = '' }: { initial?: string }) {
  const [value, setValue] = useState(initial);
  return (
    <MantineProvider env="test">
      <NumericTextInput
        label="Phone number"
        type="tel"
        value={value}
        normalize={(raw) => phoneDigits(raw, '+961')}
        normalizePaste={(pasted) => nationalDigits(pasted, '+961')}
        onValueChange={setValue}
      />
    </MantineProvider>
  );
}

const field = () => screen.getByLabelText('Phone number') as HTMLInputElement;

function paste(input: HTMLInputElement, text: string, selection: [number, number] = [0, input.value.length]) {
  input.focus();
  input.setSelectionRange(...selection);
  fireEvent.paste(input, { clipboardData: { getData: () => text } });
}

describe('NumericTextInput (issue 8 rows 1 and 2)', () => {
  it('row 1: has no HTML maxlength and asks for the numeric keyboard', () => {
    render(<Phone />);
    expect(field().getAttribute('maxlength')).toBeNull();
    expect(field().getAttribute('inputmode')).toBe('numeric');
  });

  it('row 1: a paste is normalised before the cap: +961 71 123 456 gives 71123456', () => {
    render(<Phone />);
    paste(field(), '+961 71 123 456');
    expect(field().value).toBe('71123456');
    paste(field(), '(03) 123456');
    expect(field().value).toBe('03123456');
  });

  it('row 1: a paste into the middle keeps the digits around it and caps the whole', () => {
    render(<Phone initial="7156" />);
    paste(field(), '1 23', [2, 2]);
    expect(field().value).toBe('7112356');
    expect(field().selectionStart).toBe(5);
  });

  it('row 2: typed Arabic-keyboard digits are kept as Western digits', () => {
    render(<Phone initial="7" />);
    fireEvent.change(field(), { target: { value: '7١' } });
    expect(field().value).toBe('71');
  });
});

describe('caretAfterNormalising', () => {
  it('keeps the caret after the digit it followed, and at the end when it was at the end', () => {
    expect(caretAfterNormalising('71 12', 5, '7112')).toBe(4);
    expect(caretAfterNormalising('71 12', 3, '7112')).toBe(2);
    expect(caretAfterNormalising('25121', 4, '25/12/1')).toBe(5);
    expect(caretAfterNormalising('x71', 1, '71')).toBe(0);
  });
});

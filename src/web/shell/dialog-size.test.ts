// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { dialogSize } from './dialog-size';

describe('dialogSize (spec §2 dialogs)', () => {
  it('row 8: sizes in viewport units, not percentages of Mantine padded box (which rendered 36 % and 81 %)', () => {
    expect(dialogSize('narrow', false)).toBe('40vw');
    expect(dialogSize('standard', false)).toBe('650px');
    expect(dialogSize('narrow', true)).toBe('90vw');
    expect(dialogSize('standard', true)).toBe('90vw');
  });
});
